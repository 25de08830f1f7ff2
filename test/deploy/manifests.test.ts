import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serviceNodeFlags } from '@gateway/cli';
import { parseConfig } from '@gateway/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKustomize, render, type KubeObject, type KustomizeCommand } from './kustomize.js';

// Renders deploy/base and both overlays with a real kustomize and checks what the cluster would
// get: hardened, probed, resourced Deployments; headless gRPC Services; autoscalers, disruption
// budgets and network policies; the configuration in a ConfigMap; no secret values in prod.

const deployDir = fileURLToPath(new URL('../../deploy/', import.meta.url));

type Labels = Record<string, string>;

interface Probe {
  grpc?: { port: number; service?: string };
  httpGet?: { path: string; port: number | string };
  tcpSocket?: unknown;
  exec?: unknown;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
  };
}

interface EnvFrom {
  configMapRef?: { name: string };
  secretRef?: { name: string; optional?: boolean };
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    privileged?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

interface Volume {
  name: string;
  emptyDir?: { sizeLimit?: string };
  configMap?: { name: string };
  secret?: { secretName: string };
}

interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    runAsGroup?: number;
    fsGroup?: number;
    seccompProfile?: { type: string };
  };
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  terminationGracePeriodSeconds?: number;
}

interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Labels };
    template: { metadata: { labels: Labels; annotations?: Labels }; spec: PodSpec };
  };
}

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
}

interface Service extends KubeObject {
  spec: { clusterIP?: string; type?: string; selector: Labels; ports: ServicePort[] };
}

interface ServiceAccount extends KubeObject {
  automountServiceAccountToken?: boolean;
}

interface HpaMetric {
  type: string;
  resource?: { name: string };
  pods?: { metric: { name: string }; target: { type: string; averageValue?: string } };
}

interface HorizontalPodAutoscaler extends KubeObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: HpaMetric[];
  };
}

interface StatefulSet extends KubeObject {
  spec: { replicas?: number; template: { metadata: { labels: Labels }; spec: PodSpec } };
}

interface IngressPath {
  path: string;
  pathType: string;
  backend: { service: { name: string; port: { name?: string; number?: number } } };
}

interface Ingress extends KubeObject {
  spec: { rules: { host?: string; http: { paths: IngressPath[] } }[] };
}

interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

interface PodDisruptionBudget extends KubeObject {
  spec: { selector: LabelSelector; minAvailable?: number | string; maxUnavailable?: number | string };
}

interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}

interface NetworkPolicyRule {
  from?: NetworkPolicyPeer[];
  ports?: { port?: number | string; protocol?: string }[];
}

interface NetworkPolicy extends KubeObject {
  spec: { podSelector: LabelSelector; policyTypes?: string[]; ingress?: NetworkPolicyRule[] };
}

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

interface Secret extends KubeObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

const GRPC_SERVICES = { accounting: 50051, chat: 50052, video: 50053 } as const;
type GrpcServiceName = keyof typeof GRPC_SERVICES;
const GRPC_NAMES = Object.keys(GRPC_SERVICES) as GrpcServiceName[];
const ALL_SERVICES = ['edge', ...GRPC_NAMES] as const;
const AUTOSCALED = ['edge', 'chat', 'video'] as const;
/** Who may open a connection to each gRPC service. */
const CALLERS: Record<GrpcServiceName, readonly string[]> = {
  accounting: ['edge', 'chat', 'video'],
  chat: ['edge'],
  video: ['edge'],
};
const SECRET_NAMES = ['gateway-credentials', 'gateway-admin', 'gateway-mongodb', 'gateway-encryption'] as const;

function ofKind<T extends KubeObject>(objects: readonly KubeObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as T[];
}

function named<T extends KubeObject>(objects: readonly KubeObject[], kind: string, name: string): T {
  const found = ofKind<T>(objects, kind).find((o) => o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
}

function selects(selector: LabelSelector, labels: Labels): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const expression of selector.matchExpressions ?? []) {
    const value = labels[expression.key];
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
    }
  }
  return true;
}

function podLabels(objects: readonly KubeObject[], service: string): Labels {
  return named<Deployment>(objects, 'Deployment', service).spec.template.metadata.labels;
}

function container(deployment: Deployment): Container {
  const [first, ...rest] = deployment.spec.template.spec.containers;
  expect(rest, `${deployment.metadata.name} has one container`).toEqual([]);
  if (!first) throw new Error(`${deployment.metadata.name} has no container`);
  return first;
}

function envValue(c: Container, name: string): string | undefined {
  return c.env?.find((e) => e.name === name)?.value;
}

/** Kubernetes quantities in base units (cores, bytes), enough for comparisons. */
function quantity(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G)?$/.exec(value);
  if (!match) return Number.NaN;
  const units: Record<string, number> = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9 };
  return Number(match[1]) * (match[2] ? (units[match[2]] ?? Number.NaN) : 1);
}

/** The ingress rules of every policy selecting these pods that open this port. */
function rulesFor(objects: readonly KubeObject[], labels: Labels, port: number): NetworkPolicyRule[] {
  return ofKind<NetworkPolicy>(objects, 'NetworkPolicy')
    .filter((p) => selects(p.spec.podSelector, labels))
    .flatMap((p) => p.spec.ingress ?? [])
    .filter((rule) => !rule.ports || rule.ports.some((p) => p.port === undefined || p.port === port));
}

let kustomize: KustomizeCommand;
const rendered: Record<'base' | 'dev' | 'prod' | 'requestRate', KubeObject[]> = { base: [], dev: [], prod: [], requestRate: [] };
/** An overlay adding the optional request-rate component to prod, made for the test (kustomize wants relative roots). */
const requestRateDir = fileURLToPath(new URL('./.render-request-rate/', import.meta.url));

beforeAll(() => {
  kustomize = findKustomize();
  rendered.base = render(kustomize, `${deployDir}base`);
  rendered.dev = render(kustomize, `${deployDir}overlays/dev`);
  rendered.prod = render(kustomize, `${deployDir}overlays/prod`);
  mkdirSync(requestRateDir, { recursive: true });
  writeFileSync(
    `${requestRateDir}kustomization.yaml`,
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../../deploy/overlays/prod\ncomponents:\n  - ../../../deploy/components/hpa-request-rate\n',
  );
  rendered.requestRate = render(kustomize, requestRateDir);
});
afterAll(() => rmSync(requestRateDir, { recursive: true, force: true }));

describe('deploy/base', () => {
  it('renders without a namespace and without any Secret', () => {
    expect(rendered.base.length).toBeGreaterThan(0);
    for (const o of rendered.base) expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBeUndefined();
    expect(ofKind(rendered.base, 'Secret')).toEqual([]);
  });
});

describe.each([
  ['dev', 'gateway-dev'],
  ['prod', 'gateway'],
] as const)('deploy/overlays/%s', (overlay, namespace) => {
  const objects = (): KubeObject[] => rendered[overlay];

  it(`puts everything in namespace ${namespace}, which enforces the restricted Pod Security Standard`, () => {
    const ns = named(objects(), 'Namespace', namespace);
    expect(ns.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const o of objects()) if (o.kind !== 'Namespace') expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(namespace);
  });

  it('has one Deployment, Service and ServiceAccount per service, each pod on its own token-less account', () => {
    const deployments = ofKind<Deployment>(objects(), 'Deployment')
      .map((d) => d.metadata.name)
      .sort();
    expect(deployments).toEqual([...ALL_SERVICES].sort());
    for (const name of ALL_SERVICES) {
      const account = named<ServiceAccount>(objects(), 'ServiceAccount', name);
      expect(account.automountServiceAccountToken).toBe(false);
      const pod = named<Deployment>(objects(), 'Deployment', name).spec.template.spec;
      expect(pod.serviceAccountName).toBe(name);
      expect(pod.automountServiceAccountToken).toBe(false);
      named<Service>(objects(), 'Service', name);
    }
  });

  it('runs every service from the image by command, the pods selected by their own labels', () => {
    for (const name of ALL_SERVICES) {
      const deployment = named<Deployment>(objects(), 'Deployment', name);
      expect(selects({ matchLabels: deployment.spec.selector.matchLabels }, deployment.spec.template.metadata.labels)).toBe(true);
      const c = container(deployment);
      expect(c.args).toEqual(['start', '--service', name]);
      // With a service process's Node flags on the image's Node line (24), as `gateway start
      // --separate` gives its children there.
      expect(c.command).toEqual(['node', ...serviceNodeFlags(24), 'packages/cli/bin/gateway.js']);
      expect(c.image).toMatch(/ai-gateway:[\w.-]+$/);
    }
  });

  it('hardens every pod and container', () => {
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      const name = deployment.metadata.name;
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext?.runAsNonRoot, name).toBe(true);
      expect(Number.isInteger(pod.securityContext?.runAsUser) && (pod.securityContext?.runAsUser ?? 0) > 0, `${name} runAsUser`).toBe(true);
      expect(Number.isInteger(pod.securityContext?.runAsGroup) && (pod.securityContext?.runAsGroup ?? 0) > 0, `${name} runAsGroup`).toBe(
        true,
      );
      expect(Number.isInteger(pod.securityContext?.fsGroup), `${name} fsGroup`).toBe(true);
      expect(pod.securityContext?.seccompProfile?.type, name).toBe('RuntimeDefault');
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        const where = `${name}/${c.name}`;
        expect(c.securityContext?.allowPrivilegeEscalation, where).toBe(false);
        expect(c.securityContext?.readOnlyRootFilesystem, where).toBe(true);
        expect(c.securityContext?.privileged ?? false, where).toBe(false);
        expect(c.securityContext?.capabilities?.drop, where).toContain('ALL');
        expect(c.securityContext?.capabilities?.add ?? [], where).toEqual([]);
      }
    }
  });

  it('gives the read-only containers writable emptyDirs at /data (GATEWAY_DATA_DIR) and /tmp', () => {
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      const pod = deployment.spec.template.spec;
      const c = container(deployment);
      for (const path of ['/data', '/tmp']) {
        const mount = c.volumeMounts?.find((m) => m.mountPath === path);
        expect(mount, `${deployment.metadata.name} mounts ${path}`).toBeDefined();
        const volume = pod.volumes?.find((v) => v.name === mount?.name);
        expect(volume?.emptyDir, `${deployment.metadata.name} ${path} is an emptyDir`).toBeDefined();
      }
      expect(envValue(c, 'GATEWAY_DATA_DIR')).toBe('/data');
    }
  });

  it('sets requests and limits for cpu and memory on every container, limits at or above requests', () => {
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      for (const c of deployment.spec.template.spec.containers) {
        for (const resource of ['cpu', 'memory']) {
          const request = quantity(c.resources?.requests?.[resource]);
          const limit = quantity(c.resources?.limits?.[resource]);
          expect(request, `${c.name} ${resource} request`).toBeGreaterThan(0);
          expect(limit, `${c.name} ${resource} limit`).toBeGreaterThanOrEqual(request);
        }
      }
    }
  });

  it('probes the gRPC services over gRPC health on their grpc port', () => {
    for (const name of GRPC_NAMES) {
      const c = container(named<Deployment>(objects(), 'Deployment', name));
      const port = GRPC_SERVICES[name];
      expect(c.ports?.find((p) => p.name === 'grpc')?.containerPort, name).toBe(port);
      expect(envValue(c, 'GRPC_PORT')).toBe(String(port));
      for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
        expect(probe?.grpc?.port, `${name} probe`).toBe(port);
      }
      // Liveness asks the name that ignores dependencies: a store outage must not restart pods.
      expect(c.livenessProbe?.grpc?.service, `${name} liveness`).toBe('liveness');
      expect(c.readinessProbe?.grpc?.service ?? '', `${name} readiness`).toBe('');
    }
  });

  it('probes the edge over HTTP: readiness on /health/readiness, liveness on /health/liveness', () => {
    const c = container(named<Deployment>(objects(), 'Deployment', 'edge'));
    expect(c.ports?.find((p) => p.name === 'http')?.containerPort).toBe(4000);
    expect(c.readinessProbe?.httpGet?.path).toBe('/health/readiness');
    expect(c.livenessProbe?.httpGet?.path).toBe('/health/liveness');
    expect(c.startupProbe?.httpGet).toBeDefined();
    for (const probe of [c.readinessProbe, c.livenessProbe]) expect([4000, 'http']).toContain(probe?.httpGet?.port);
  });

  it('serves each gRPC service from a headless Service with a port named grpc, the edge on a port named http', () => {
    for (const name of GRPC_NAMES) {
      const service = named<Service>(objects(), 'Service', name);
      expect(service.spec.clusterIP, name).toBe('None');
      const grpc = service.spec.ports.find((p) => p.name === 'grpc');
      expect(grpc?.port, name).toBe(GRPC_SERVICES[name]);
      expect(selects({ matchLabels: service.spec.selector }, podLabels(objects(), name))).toBe(true);
    }
    const edge = named<Service>(objects(), 'Service', 'edge');
    expect(edge.spec.ports.find((p) => p.name === 'http')?.targetPort).toBe('http');
    expect(selects({ matchLabels: edge.spec.selector }, podLabels(objects(), 'edge'))).toBe(true);
  });

  it('points the callers at the headless Services with dns:/// targets (round robin over the pods)', () => {
    const edge = container(named<Deployment>(objects(), 'Deployment', 'edge'));
    const expectTarget = (c: Container, variable: string, service: GrpcServiceName) => {
      expect(envValue(c, variable), variable).toBe(`dns:///${service}.$(POD_NAMESPACE).svc.cluster.local:${GRPC_SERVICES[service]}`);
      expect(c.env?.find((e) => e.name === 'POD_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.namespace');
    };
    expectTarget(edge, 'ACCOUNTING_ADDRESS', 'accounting');
    expectTarget(edge, 'CHAT_ADDRESS', 'chat');
    expectTarget(edge, 'VIDEO_ADDRESS', 'video');
    for (const name of ['chat', 'video'] as const) {
      expectTarget(container(named<Deployment>(objects(), 'Deployment', name)), 'ACCOUNTING_ADDRESS', 'accounting');
    }
  });

  it('autoscales edge, chat and video with autoscaling/v2 HorizontalPodAutoscalers', () => {
    const hpas = ofKind<HorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler');
    for (const name of AUTOSCALED) {
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === name);
      expect(hpa, name).toBeDefined();
      expect(hpa?.apiVersion).toBe('autoscaling/v2');
      expect(hpa?.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(hpa?.spec.minReplicas ?? 1).toBeLessThanOrEqual(hpa?.spec.maxReplicas ?? 0);
      expect(hpa?.spec.metrics?.length ?? 0).toBeGreaterThan(0);
    }
  });

  it('has a PodDisruptionBudget for every service that still lets one pod go', () => {
    for (const name of ALL_SERVICES) {
      const labels = podLabels(objects(), name);
      const pdb = ofKind<PodDisruptionBudget>(objects(), 'PodDisruptionBudget').find((p) => selects(p.spec.selector, labels));
      expect(pdb, name).toBeDefined();
      // One replica (dev) must not block a node drain: no minAvailable that equals the replicas.
      expect(pdb?.spec.maxUnavailable ?? pdb?.spec.minAvailable).toBeDefined();
    }
  });

  it('lets only the callers of each gRPC service reach its gRPC port', () => {
    for (const name of GRPC_NAMES) {
      const labels = podLabels(objects(), name);
      const policies = ofKind<NetworkPolicy>(objects(), 'NetworkPolicy').filter((p) => selects(p.spec.podSelector, labels));
      expect(policies.length, `a NetworkPolicy selects ${name}`).toBeGreaterThan(0);
      expect(
        policies.some((p) => p.spec.policyTypes?.includes('Ingress')),
        name,
      ).toBe(true);
      const rules = rulesFor(objects(), labels, GRPC_SERVICES[name]);
      expect(rules.length, `${name} gRPC port is reachable by someone`).toBeGreaterThan(0);
      for (const rule of rules) {
        // Every rule opening the gRPC port names its peers, and each is a pod of this namespace...
        expect(rule.from?.length, `${name}: a rule without "from" opens the port to everyone`).toBeGreaterThan(0);
        for (const peer of rule.from ?? []) {
          expect(peer.namespaceSelector, `${name}: no other namespace`).toBeUndefined();
          expect(peer.ipBlock, `${name}: no address blocks`).toBeUndefined();
          expect(peer.podSelector, `${name}: pods only`).toBeDefined();
          // ...and of the allowed callers only.
          for (const other of ALL_SERVICES) {
            const allowed = selects(peer.podSelector ?? {}, podLabels(objects(), other));
            if (allowed) expect(CALLERS[name], `${other} may reach ${name}`).toContain(other);
          }
        }
      }
      // Every expected caller is let in.
      for (const caller of CALLERS[name]) {
        const callerLabels = podLabels(objects(), caller);
        expect(
          rules.some((r) => (r.from ?? []).some((peer) => selects(peer.podSelector ?? {}, callerLabels))),
          `${caller} reaches ${name}`,
        ).toBe(true);
      }
    }
  });

  it('lets traffic into the edge on 4000, and only the monitoring namespace to any metrics port (the edge’s too)', () => {
    const edgeRules = rulesFor(objects(), podLabels(objects(), 'edge'), 4000);
    expect(edgeRules.length).toBeGreaterThan(0);
    for (const name of ALL_SERVICES) {
      const rules = rulesFor(objects(), podLabels(objects(), name), 9464);
      expect(rules.length, `${name} metrics`).toBeGreaterThan(0);
      for (const rule of rules) {
        // Every rule opening 9464 names its peers, and each is the monitoring namespace.
        expect(rule.from?.length, `${name}: 9464 open to everyone`).toBeGreaterThan(0);
        for (const peer of rule.from ?? []) {
          expect(peer.namespaceSelector?.matchLabels, name).toEqual({ 'kubernetes.io/metadata.name': 'monitoring' });
          expect(peer.podSelector, name).toBeUndefined();
        }
      }
    }
    // The rule opening the edge's public port does not also open its metrics port.
    for (const rule of edgeRules) expect(rule.ports?.map((p) => p.port)).toEqual([4000]);
  });

  it('marks every pod for Prometheus scraping on its metrics port, 9464 (METRICS_PORT), the edge’s off its public port', () => {
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      const annotations = deployment.spec.template.metadata.annotations ?? {};
      const name = deployment.metadata.name;
      expect(annotations['prometheus.io/scrape'], name).toBe('true');
      expect(annotations['prometheus.io/path'], name).toBe('/metrics');
      expect(annotations['prometheus.io/port'], name).toBe('9464');
      const c = container(deployment);
      expect(c.ports?.find((p) => p.name === 'metrics')?.containerPort, name).toBe(9464);
      expect(envValue(c, 'METRICS_PORT'), name).toBe('9464');
    }
  });

  it('sets no replicas on a Deployment an autoscaler owns (an apply would reset the count)', () => {
    const owned = new Set(ofKind<HorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name));
    expect([...owned].sort()).toEqual([...AUTOSCALED].sort());
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      if (owned.has(deployment.metadata.name)) expect(deployment.spec.replicas, deployment.metadata.name).toBeUndefined();
      else expect(deployment.spec.replicas, deployment.metadata.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('autoscales on CPU by default', () => {
    for (const name of AUTOSCALED) {
      const metrics = named<HorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler', name).spec.metrics ?? [];
      expect(
        metrics.map((m) => `${m.type}/${m.resource?.name ?? m.pods?.metric.name}`),
        name,
      ).toEqual(['Resource/cpu']);
    }
  });

  it('mounts one valid gateway configuration from a ConfigMap into every service', () => {
    const configMaps = ofKind<ConfigMap>(objects(), 'ConfigMap').filter((c) => c.data?.['gateway.yaml'] !== undefined);
    expect(configMaps.length).toBe(1);
    const configMap = configMaps[0] as ConfigMap;
    const config = parseConfig(configMap.data?.['gateway.yaml'] ?? '', 'gateway.yaml');
    expect(config.groups.length).toBeGreaterThan(0);
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      const c = container(deployment);
      const path = envValue(c, 'GATEWAY_CONFIG') ?? '';
      const mount = c.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
      expect(mount?.readOnly, `${deployment.metadata.name} mounts its config read-only`).toBe(true);
      const volume = deployment.spec.template.spec.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.configMap?.name).toBe(configMap.metadata.name);
      expect(path.slice((mount?.mountPath.length ?? 0) + 1)).toBe('gateway.yaml');
    }
  });

  it('gives the edge and chat pods time for the pre-stop delay and the longest stream before the kill', () => {
    const configMap = ofKind<ConfigMap>(objects(), 'ConfigMap').find((c) => c.data?.['gateway.yaml'] !== undefined) as ConfigMap;
    const { server } = parseConfig(configMap.data?.['gateway.yaml'] ?? '', 'gateway.yaml');
    expect(server.shutdownDelayMs).toBeGreaterThan(0);
    expect(server.shutdownGraceMs).toBeGreaterThan(server.maxStreamMs);
    for (const name of ['edge', 'chat']) {
      const seconds = named<Deployment>(objects(), 'Deployment', name).spec.template.spec.terminationGracePeriodSeconds ?? 30;
      expect(seconds * 1000, name).toBeGreaterThan(server.shutdownDelayMs + server.shutdownGraceMs);
    }
  });

  it('takes NATS_URL from a ConfigMap and MongoDB and credentials from Secrets, never from plain values', () => {
    for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
      const c = container(deployment);
      const name = deployment.metadata.name;
      const configMapNames = (c.envFrom ?? []).flatMap((e) => (e.configMapRef ? [e.configMapRef.name] : []));
      const nats = ofKind<ConfigMap>(objects(), 'ConfigMap').find((m) => configMapNames.includes(m.metadata.name) && m.data?.NATS_URL);
      expect(nats?.data?.NATS_URL, `${name} NATS_URL`).toMatch(/^nats:\/\//);
      for (const variable of ['MONGODB_URI', 'ADMIN_TOKEN', 'DEEPSEEK_API_KEY', 'MINIMAX_API_KEY', 'ARK_API_KEY']) {
        expect(envValue(c, variable), `${name} ${variable} is not a plain value`).toBeUndefined();
      }
    }
    const secretRef = (service: string, variable: string) =>
      container(named<Deployment>(objects(), 'Deployment', service)).env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef;
    expect(secretRef('accounting', 'MONGODB_URI')?.name).toMatch(/^gateway-mongodb/);
    expect(secretRef('video', 'MONGODB_URI')?.name).toMatch(/^gateway-mongodb/);
    expect(secretRef('edge', 'ADMIN_TOKEN')?.name).toMatch(/^gateway-admin/);
    // One sealing key for every chat replica (the Responses API's encrypted_content).
    expect(secretRef('chat', 'GATEWAY_ENCRYPTION_KEY')?.name).toMatch(/^gateway-encryption/);
    for (const name of ['chat', 'video']) {
      const c = container(named<Deployment>(objects(), 'Deployment', name));
      expect(
        c.envFrom?.some((e) => e.secretRef?.name.startsWith('gateway-credentials')),
        `${name} gets the provider credentials`,
      ).toBe(true);
    }
    // Provider credentials reach only the services that call providers.
    for (const name of ['edge', 'accounting']) {
      const c = container(named<Deployment>(objects(), 'Deployment', name));
      expect(c.envFrom?.some((e) => e.secretRef) ?? false, name).toBe(false);
    }
  });

  if (overlay === 'prod') {
    it('holds no secret values: the Secrets are expected to exist, under their plain names', () => {
      for (const secret of ofKind<Secret>(objects(), 'Secret')) {
        expect(Object.keys(secret.data ?? {}), secret.metadata.name).toEqual([]);
        expect(Object.keys(secret.stringData ?? {}), secret.metadata.name).toEqual([]);
      }
      const referenced = new Set<string>();
      for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
        const c = container(deployment);
        for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) referenced.add(e.valueFrom.secretKeyRef.name);
        for (const e of c.envFrom ?? []) if (e.secretRef) referenced.add(e.secretRef.name);
      }
      expect([...referenced].sort()).toEqual([...SECRET_NAMES].sort());
    });

    it('pins the image tag, and runs more replicas within wider autoscaling bounds than dev', () => {
      for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
        const image = container(deployment).image;
        const tag = image.slice(image.lastIndexOf(':') + 1);
        expect(tag, image).toMatch(/^v?\d+\.\d+\.\d+/);
      }
      const accounting = named<Deployment>(objects(), 'Deployment', 'accounting').spec.replicas ?? 1;
      expect(accounting).toBeGreaterThanOrEqual(2);
      expect(accounting).toBeGreaterThan(named<Deployment>(rendered.dev, 'Deployment', 'accounting').spec.replicas ?? 1);
      for (const name of AUTOSCALED) {
        const prod = named<HorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler', name).spec;
        const dev = named<HorizontalPodAutoscaler>(rendered.dev, 'HorizontalPodAutoscaler', name).spec;
        expect(prod.minReplicas ?? 1, name).toBeGreaterThanOrEqual(2);
        expect(prod.maxReplicas, name).toBeGreaterThan(dev.maxReplicas);
      }
    });

    it('has an example Ingress that routes /v1 and the health probes to the edge, and nothing else', () => {
      const [ingress, ...others] = ofKind<Ingress>(objects(), 'Ingress');
      expect(others).toEqual([]);
      const paths = (ingress?.spec.rules ?? []).flatMap((r) => r.http.paths);
      expect(paths.map((p) => `${p.pathType} ${p.path}`).sort()).toEqual([
        'Exact /health/liveness',
        'Exact /health/readiness',
        'Prefix /v1',
      ]);
      for (const path of paths) expect(path.backend.service).toEqual({ name: 'edge', port: { name: 'http' } });
      const edgeService = named<Service>(objects(), 'Service', 'edge');
      expect(edgeService.spec.ports.find((p) => p.name === 'http')?.targetPort).toBe('http');
    });

    it('can also scale edge and chat on request rate, with the hpa-request-rate component and prometheus-adapter', async () => {
      const rules = (await import('yaml')).parse(
        (await import('node:fs')).readFileSync(`${deployDir}components/hpa-request-rate/prometheus-adapter-rules.yaml`, 'utf8'),
      ) as { rules: { custom: { name: { as: string } }[] } };
      const served = rules.rules.custom.map((r) => r.name.as);
      for (const [name, metric] of [
        ['edge', 'gateway_http_requests_per_second'],
        ['chat', 'gateway_grpc_server_handled_per_second'],
      ] as const) {
        const metrics = named<HorizontalPodAutoscaler>(rendered.requestRate, 'HorizontalPodAutoscaler', name).spec.metrics ?? [];
        expect(
          metrics.map((m) => m.type),
          name,
        ).toEqual(['Resource', 'Pods']);
        expect(metrics[1]?.pods?.metric.name, name).toBe(metric);
        expect(served, `prometheus-adapter serves ${metric}`).toContain(metric);
      }
      expect(named<HorizontalPodAutoscaler>(rendered.requestRate, 'HorizontalPodAutoscaler', 'video').spec.metrics).toHaveLength(1);
    });

    it('gives prod containers more resources than dev', () => {
      for (const name of ALL_SERVICES) {
        const prod = container(named<Deployment>(objects(), 'Deployment', name)).resources;
        const dev = container(named<Deployment>(rendered.dev, 'Deployment', name)).resources;
        for (const resource of ['cpu', 'memory']) {
          expect(quantity(prod?.requests?.[resource]), `${name} ${resource}`).toBeGreaterThan(quantity(dev?.requests?.[resource]));
          expect(quantity(prod?.limits?.[resource]), `${name} ${resource}`).toBeGreaterThan(quantity(dev?.limits?.[resource]));
        }
      }
    });
  } else {
    it('runs one replica of accounting, and autoscales the others from one to two at most', () => {
      expect(named<Deployment>(objects(), 'Deployment', 'accounting').spec.replicas).toBe(1);
      for (const name of AUTOSCALED) {
        const hpa = named<HorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler', name).spec;
        expect(hpa.minReplicas).toBe(1);
        expect(hpa.maxReplicas).toBeLessThanOrEqual(2);
      }
    });

    it('runs NATS with JetStream and MongoDB in the namespace, where NATS_URL and MONGODB_URI point', () => {
      const sets = ofKind<StatefulSet>(objects(), 'StatefulSet');
      expect(sets.map((s) => s.metadata.name).sort()).toEqual(['mongodb', 'nats']);
      const nats = named<StatefulSet>(objects(), 'StatefulSet', 'nats').spec.template.spec.containers[0];
      expect(nats?.args).toEqual(expect.arrayContaining(['-js']));
      expect(named<Service>(objects(), 'Service', 'nats').spec.ports.map((p) => p.port)).toEqual([4222]);
      expect(named<Service>(objects(), 'Service', 'mongodb').spec.ports.map((p) => p.port)).toEqual([27017]);
      const env = ofKind<ConfigMap>(objects(), 'ConfigMap').find((c) => c.metadata.name.startsWith('gateway-env-'));
      expect(env?.data?.NATS_URL).toBe('nats://nats:4222');
      const mongo = ofKind<Secret>(objects(), 'Secret').find((c) => c.metadata.name.startsWith('gateway-mongodb-'));
      expect(Buffer.from(mongo?.data?.MONGODB_URI ?? '', 'base64').toString()).toMatch(/^mongodb:\/\/mongodb:27017\//);
      // They meet the namespace's restricted Pod Security Standard too.
      for (const set of sets) {
        const pod = set.spec.template.spec;
        expect(pod.securityContext?.runAsNonRoot, set.metadata.name).toBe(true);
        expect(pod.securityContext?.seccompProfile?.type, set.metadata.name).toBe('RuntimeDefault');
        for (const c of pod.containers) {
          expect(c.securityContext?.allowPrivilegeEscalation, c.name).toBe(false);
          expect(c.securityContext?.capabilities?.drop, c.name).toEqual(['ALL']);
        }
      }
      // Only the gateway reaches them: NATS from every service, MongoDB from accounting and video.
      const reach = (labels: Labels, port: number) =>
        ALL_SERVICES.filter((caller) =>
          rulesFor(objects(), labels, port).some((r) =>
            (r.from ?? []).some((peer) => selects(peer.podSelector ?? {}, podLabels(objects(), caller))),
          ),
        ).sort();
      expect(reach(named<StatefulSet>(objects(), 'StatefulSet', 'nats').spec.template.metadata.labels, 4222)).toEqual(
        [...ALL_SERVICES].sort(),
      );
      expect(reach(named<StatefulSet>(objects(), 'StatefulSet', 'mongodb').spec.template.metadata.labels, 27017)).toEqual([
        'accounting',
        'video',
      ]);
    });

    it('generates only placeholder Secrets, and every Secret the pods use', () => {
      const secrets = ofKind<Secret>(objects(), 'Secret');
      const decoded = (name: string): Record<string, string> => {
        const secret = secrets.find((s) => s.metadata.name.startsWith(`${name}-`));
        if (!secret) throw new Error(`no generated Secret ${name}`);
        return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
      };
      expect(decoded('gateway-admin').ADMIN_TOKEN).toMatch(/replace-me/);
      expect(Buffer.from(decoded('gateway-encryption').GATEWAY_ENCRYPTION_KEY ?? '', 'base64').toString()).toMatch(/replace-me/);
      for (const [variable, value] of Object.entries(decoded('gateway-credentials'))) expect(value, variable).toBe('');
      const mongodb = decoded('gateway-mongodb').MONGODB_URI ?? '';
      expect(mongodb).toMatch(/^mongodb:\/\//);
      expect(mongodb, 'no credentials in the placeholder URI').not.toContain('@');
      const generated = new Set(secrets.map((s) => s.metadata.name));
      for (const deployment of ofKind<Deployment>(objects(), 'Deployment')) {
        const c = container(deployment);
        for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) expect(generated).toContain(e.valueFrom.secretKeyRef.name);
        for (const e of c.envFrom ?? []) if (e.secretRef) expect(generated).toContain(e.secretRef.name);
      }
    });
  }
});

describe('kustomize', () => {
  it('is found without a download (reports where from)', () => {
    expect(kustomize.source.length).toBeGreaterThan(0);
  });
});
