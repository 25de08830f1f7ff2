import { trace } from '@opentelemetry/api';
import { followScopesAcrossAwaits, type Logger } from '@gateway/logging';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { setRecordingTracer } from './trace.js';

// Span export is optional and chosen by the environment. The SDK and the OTLP exporter are
// loaded only when an exporter is configured, so the default start pays nothing for them.

export type TracingEnv = Readonly<Record<string, string | undefined>>;

/** Any pino-shaped logger (a service's, or Fastify's). */
export type TelemetryLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface TracingOptions {
  env: TracingEnv;
  /** The resource's service.name, unless OTEL_SERVICE_NAME is set. */
  serviceName: string;
  logger?: TelemetryLogger;
}

export interface Tracing {
  /** True when spans are recorded and exported. */
  readonly enabled: boolean;
  /** Flushes and stops the exporter once its last user has shut down. */
  shutdown(): Promise<void>;
}

/** OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint, turns export on; OTEL_TRACES_EXPORTER=none keeps it off. */
export function exporterConfigured(env: TracingEnv): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  if (exporter === 'otlp') return true;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The OTLP/HTTP traces URL; undefined leaves the exporter's default (http://localhost:4318/v1/traces). */
export function tracesUrl(env: TracingEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

const DISABLED: Tracing = { enabled: false, shutdown: async () => undefined };

/** The process's one provider and how many services use it (the all-in-one start shares it). */
let shared: { users: number; provider: Promise<NodeTracerProvider | undefined> } | undefined;

async function startProvider({ env, serviceName, logger }: TracingOptions): Promise<NodeTracerProvider | undefined> {
  const url = tracesUrl(env);
  try {
    const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
    const name = env.OTEL_SERVICE_NAME || serviceName;
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': name }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(url ? { url } : {}))],
    });
    // Only the provider is registered: the context manager and the W3C propagator are ours (trace.ts).
    trace.setGlobalTracerProvider(provider);
    setRecordingTracer(provider.getTracer('@gateway/telemetry'));
    // Spans nest by the context current where they start: it must follow every await now.
    followScopesAcrossAwaits();
    logger?.info({ endpoint: url ? new URL(url).origin : 'default', serviceName: name }, 'exporting traces over OTLP/HTTP');
    return provider;
  } catch (error) {
    // Tracing is optional: a bad endpoint must not keep the gateway from starting.
    logger?.error({ err: error }, 'could not start trace export; continuing without it');
    return undefined;
  }
}

/**
 * Starts span export when the environment asks for it. Safe to call once per service in one
 * process: the first call starts the provider, later ones share it, and it stops with the last
 * shutdown().
 */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  if (!exporterConfigured(options.env)) return DISABLED;
  shared ??= { users: 0, provider: startProvider(options) };
  const state = shared;
  state.users += 1;
  const provider = await state.provider;
  let stopped = false;
  return {
    enabled: provider !== undefined,
    shutdown: async () => {
      if (stopped) return;
      stopped = true;
      state.users -= 1;
      if (state.users > 0) return;
      if (shared === state) shared = undefined;
      if (!provider) return;
      setRecordingTracer(undefined);
      await provider.shutdown().catch((error: unknown) => options.logger?.warn({ err: error }, 'trace exporter did not shut down cleanly'));
      trace.disable();
    },
  };
}
