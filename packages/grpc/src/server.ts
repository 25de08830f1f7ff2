import type * as grpc from '@grpc/grpc-js';
import { loadGrpcJs, LogVerbosity, type Metadata, setLoggerVerbosity, Status } from './grpc-js.js';
import { asGatewayError, GatewayError } from '@gateway/errors';
import { fieldsOf, runInScope, type Logger, type RequestScope } from '@gateway/logging';
import { protos, type HealthHandlers } from '@gateway/protos';
import {
  contextFromMetadata,
  endServerScope,
  grpcCallSeries,
  startServerScope,
  type GrpcCallSeries,
  type ServerSpanOptions,
  type TracedScope,
} from '@gateway/telemetry';
import { toServiceError } from './errors.js';
import { abortedCallError, callSignal, deadlineOf } from './call-signal.js';
import { InProcessEndpoint } from './in-process.js';
import { channelOptions, REQUEST_ID_KEY } from './options.js';
import { upstreamMetadata } from './upstream-time.js';

// grpc-js writes its own "E …" lines to stderr (a port already taken, for one) beside what the
// gateway logs and says about the same failure; GRPC_VERBOSITY turns them back on for debugging.
if (process.env.GRPC_VERBOSITY === undefined) setLoggerVerbosity(LogVerbosity.NONE);

/** A dependency probe: resolves while the dependency is usable. */
export type ReadinessCheck = () => Promise<void>;

export interface GrpcServerOptions {
  logger: Logger;
  /** The gateway service it serves (chat, video, accounting): the `service` label of its metrics. */
  service?: string;
  /** Named probes; the service reports NOT_SERVING while any rejects. */
  checks?: Readonly<Record<string, ReadinessCheck>>;
  /** How long in-flight calls may run on close before they are cut. */
  shutdownGraceMs?: number;
  /** Connections get a GOAWAY after about this long (±10%); channelOptions' (5 min) when unset. For tests. */
  maxConnectionAgeMs?: number;
  /** How long calls on a connection past its age may still run; channelOptions' (1 h) when unset. For tests. */
  maxConnectionAgeGraceMs?: number;
}

/** What a handler knows about its call. */
export interface CallInfo {
  requestId: string | undefined;
  /** The call's request and trace: pass it on (CallContext.scope) and into log lines (fieldsOf). */
  scope: RequestScope;
  metadata: Metadata;
  /**
   * The caller's deadline, Unix milliseconds (`Infinity` when it set none): pass it on
   * (CallContext.deadline) so calls this handler makes end no later than its own.
   */
  deadline: number;
  /**
   * Aborted when the caller cancels or the deadline passes, for unary calls and streams alike;
   * its reason is CALL_CANCELLED or CALL_DEADLINE_EXCEEDED. Pass it on (CallContext.signal).
   */
  signal: AbortSignal;
  /**
   * Milliseconds the handler spent waiting on upstream providers; a handler that calls them adds
   * to it. When set it goes back to the caller as leading metadata (x-upstream-ms), before the
   * first message, so the edge can tell the gateway's own time from the upstream's.
   */
  upstreamMs: number;
}

export function requestIdOf(metadata: Metadata): string | undefined {
  const value = metadata.get(REQUEST_ID_KEY)[0];
  return typeof value === 'string' ? value : undefined;
}

/** Statuses that mean the server failed (OpenTelemetry's gRPC convention); the others are the caller's. */
const SERVER_FAULTS: ReadonlySet<string> = new Set([
  'UNKNOWN',
  'DEADLINE_EXCEEDED',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
]);

/** The status name a failure ends a call with, as the metrics label it. */
function statusName(code: Status | undefined): string {
  return code === undefined ? 'UNKNOWN' : (Status[code] ?? String(code));
}

/**
 * A gRPC server with the gateway's conventions: async handlers whose GatewayErrors become
 * statuses with the stable code in trailing metadata, grpc.health.v1 backed by dependency
 * probes, and a bounded graceful shutdown. Every call runs in the caller's trace (W3C
 * `traceparent` in metadata) and request scope, so log lines and onward calls carry both, and
 * is counted and timed (gateway_grpc_server_*).
 */
/** The grpc.health.v1 service name that answers SERVING while the process runs (liveness probes). */
export const LIVENESS_SERVICE = 'liveness';

export class GrpcServer {
  /** What serves other processes: grpc-js's server. */
  readonly #server: grpc.Server;
  /** The same handlers for callers in this process (see listenInProcess). */
  readonly #inProcess = new InProcessEndpoint();
  readonly #logger: Logger;
  readonly #checks: Readonly<Record<string, ReadinessCheck>>;
  readonly #serviceNames = new Set<string>(['']);
  readonly #shutdownGraceMs: number;
  readonly #service: string;
  #draining = false;

  constructor(options: GrpcServerOptions) {
    this.#logger = options.logger;
    this.#service = options.service ?? 'unknown';
    this.#checks = options.checks ?? {};
    this.#shutdownGraceMs = options.shutdownGraceMs ?? 10_000;
    this.#server = new (loadGrpcJs().Server)({
      ...channelOptions,
      ...(options.maxConnectionAgeMs === undefined ? {} : { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs }),
      ...(options.maxConnectionAgeGraceMs === undefined ? {} : { 'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs }),
    });
    const health = protos().grpc.health.v1.Health.service;
    const healthHandlers = this.#healthHandlers();
    // In process, health is still answered while the server drains, so it says NOT_SERVING;
    // over gRPC a draining grpc-js server takes no new call, so a probe finds it unreachable.
    this.#server.addService(health, healthHandlers);
    this.#inProcess.addService(health, healthHandlers, true);
  }

  /**
   * Registers a service; `name` (its full proto name) becomes a health-checkable service. Methods
   * without a handler answer UNIMPLEMENTED (grpc-js's default).
   */
  addService(
    name: string,
    definition: grpc.ServiceDefinition,
    handlers: Readonly<Record<string, grpc.UntypedHandleCall | undefined>>,
  ): void {
    this.#serviceNames.add(name);
    const implemented: grpc.UntypedServiceImplementation = {};
    for (const [method, handler] of Object.entries(handlers)) if (handler) implemented[method] = handler;
    this.#server.addService(definition, implemented);
    this.#inProcess.addService(definition, implemented);
  }

  /** Wraps an async function as a unary handler. */
  unary<Req, Res>(name: string, handler: (request: Req, call: CallInfo) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
    const method = this.#method(name);
    return (call, callback) => {
      const startedAt = performance.now();
      const deadline = deadlineOf(call.getDeadline());
      const { signal, finish } = callSignal(call, deadline);
      const requestId = requestIdOf(call.metadata);
      const scope = startServerScope(contextFromMetadata(call.metadata), requestId, method.span);
      const info: CallInfo = { requestId, scope, metadata: call.metadata, deadline, signal, upstreamMs: 0 };
      // The reactions are attached inside the scope too, so what they log names the call.
      void runInScope(scope, () =>
        handler(call.request, info).then(
          (response) => {
            finish();
            if (info.upstreamMs > 0) call.sendMetadata(upstreamMetadata(info.upstreamMs));
            callback(null, response);
            this.#succeeded(method, startedAt, scope);
          },
          (error: unknown) => {
            finish();
            const failure = this.#failure(name, abortedCallError(error, info.signal), scope);
            callback(failure);
            this.#failed(method, startedAt, scope, info.signal.aborted ? 'CANCELLED' : statusName(failure.code));
          },
        ),
      );
    };
  }

  /**
   * Wraps an async function that writes messages as a server-streaming handler; `write`
   * resolves once the message may be followed by another (flow control).
   */
  serverStream<Req, Res>(
    name: string,
    handler: (request: Req, write: (message: Res) => Promise<void>, call: CallInfo) => Promise<void>,
  ): grpc.handleServerStreamingCall<Req, Res> {
    const method = this.#method(name);
    return (call) => {
      const startedAt = performance.now();
      const deadline = deadlineOf(call.getDeadline());
      const { signal, finish } = callSignal(call, deadline);
      const requestId = requestIdOf(call.metadata);
      const scope = startServerScope(contextFromMetadata(call.metadata), requestId, method.span);
      const info: CallInfo = { requestId, scope, metadata: call.metadata, deadline, signal, upstreamMs: 0 };
      let started = false;
      const write = (message: Res): Promise<void> => {
        if (info.signal.aborted) return Promise.reject(new GatewayError('service_unavailable', { message: 'The caller went away.' }));
        if (!started) {
          started = true;
          if (info.upstreamMs > 0) call.sendMetadata(upstreamMetadata(info.upstreamMs));
        }
        if (call.write(message)) return Promise.resolve();
        // A caller that goes away while the stream waits for room never sends 'drain': the wait
        // ends with the call, so the handler unwinds (and gives back what it holds, such as a
        // budget claim) instead of waiting for ever.
        return new Promise((resolve, reject) => {
          const onAbort = () => {
            call.off('drain', onDrain);
            reject(new GatewayError('service_unavailable', { message: 'The caller went away.' }));
          };
          const onDrain = () => {
            info.signal.removeEventListener('abort', onAbort);
            resolve();
          };
          call.once('drain', onDrain);
          info.signal.addEventListener('abort', onAbort, { once: true });
        });
      };
      void runInScope(scope, () =>
        handler(call.request, write, info).then(
          () => {
            finish();
            call.end();
            this.#succeeded(method, startedAt, scope);
          },
          // grpc-js turns an 'error' event carrying a status into the call's final status.
          (error: unknown) => {
            finish();
            const failure = this.#failure(name, abortedCallError(error, info.signal), scope);
            call.emit('error', failure);
            this.#failed(method, startedAt, scope, info.signal.aborted ? 'CANCELLED' : statusName(failure.code));
          },
        ),
      );
    };
  }

  /** What a method's calls share: its span options and its series for successful calls, built once. */
  #method(name: string): MethodTelemetry {
    return {
      name,
      span: {
        name: `${this.#service}/${name}`,
        attributes: { 'rpc.system': 'grpc', 'rpc.method': name, 'gateway.service': this.#service },
      },
      ok: grpcCallSeries(this.#service, name, 'OK'),
    };
  }

  #succeeded(method: MethodTelemetry, startedAt: number, scope: TracedScope): void {
    const ms = performance.now() - startedAt;
    method.ok.handled.inc();
    method.ok.handling.observe(ms / 1000);
    endServerScope(scope);
    if (this.#logger.isLevelEnabled('debug'))
      this.#logger.debug({ ...fieldsOf(scope), rpc: method.name, code: 'OK', ms: Math.round(ms * 1000) / 1000 }, 'rpc handled');
  }

  #failed(method: MethodTelemetry, startedAt: number, scope: TracedScope, code: string): void {
    const series = grpcCallSeries(this.#service, method.name, code);
    series.handled.inc();
    series.handling.observe((performance.now() - startedAt) / 1000);
    endServerScope(
      scope,
      SERVER_FAULTS.has(code) ? code : undefined,
      scope.span.isRecording() ? { 'rpc.grpc.status_code': code } : undefined,
    );
  }

  #failure(name: string, error: unknown, scope: RequestScope): Partial<grpc.StatusObject> {
    const gatewayError = asGatewayError(error);
    if (gatewayError.code === 'internal_error') {
      this.#logger.error({ ...fieldsOf(scope), err: error, rpc: name }, 'rpc failed');
    } else {
      this.#logger.debug({ ...fieldsOf(scope), code: gatewayError.code, rpc: name }, 'rpc answered with an error');
    }
    return toServiceError(gatewayError);
  }

  /**
   * Binds and starts; `address` is host:port (port 0 picks a free one). Resolves to the port. A
   * port already taken fails like Node's own listen (code EADDRINUSE, with `port`), so callers
   * can say which one.
   */
  async listen(address: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.bindAsync(address, loadGrpcJs().ServerCredentials.createInsecure(), (error, port) => {
        if (!error) return resolve(port);
        if (!/EADDRINUSE/.test(error.message)) return reject(error);
        reject(addressInUse(address, error));
      });
    });
  }

  /**
   * Also answers callers in this same process that dial `address` (an inproc: address, see
   * createClient): the same handlers, called directly with each message serialized as over gRPC,
   * without a socket or HTTP/2.
   */
  listenInProcess(address: string): void {
    this.#inProcess.publish(address);
  }

  /**
   * Health turns NOT_SERVING at once and new calls are refused (in process, health is still
   * answered, NOT_SERVING); in-flight calls get the grace period, then are cut.
   */
  async close(): Promise<void> {
    this.#draining = true;
    this.#inProcess.drain();
    // Over gRPC: no new connections or calls, GOAWAY on every open one; resolves once all have closed.
    const stopped = new Promise<void>((resolve) => this.#server.tryShutdown(() => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all([stopped, this.#inProcess.idle()]).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#shutdownGraceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    if (!drained) {
      this.#server.forceShutdown();
      this.#inProcess.cutAll();
    }
    this.#inProcess.close();
  }

  /** Runs every probe; names those that fail. */
  async failingChecks(): Promise<string[]> {
    if (this.#draining) return ['shutting_down'];
    const names = Object.keys(this.#checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(this.#checks[name] as ReadinessCheck, 1500)));
    return names.filter((_, i) => results[i]?.status === 'rejected');
  }

  #healthHandlers(): HealthHandlers {
    const statusFor = async (service: string) => {
      // Liveness: the process answers. A dependency that is down (or a drain) must not get the
      // process restarted, so this name ignores the readiness checks.
      if (service === LIVENESS_SERVICE) return 'SERVING' as const;
      if (!this.#serviceNames.has(service)) return undefined;
      return (await this.failingChecks()).length === 0 ? ('SERVING' as const) : ('NOT_SERVING' as const);
    };
    return {
      Check: (call, callback) => {
        statusFor(call.request.service).then(
          (status) => {
            if (status === undefined) callback({ code: Status.NOT_FOUND, details: 'unknown service' });
            else callback(null, { status });
          },
          (error: unknown) => callback({ code: Status.INTERNAL, details: String(error) }),
        );
      },
      Watch: (call) => {
        // Sends the status now and again whenever it changes, until the caller goes away.
        let last: string | undefined;
        let stopped = false;
        const tick = async () => {
          if (stopped) return;
          const status = (await statusFor(call.request.service).catch(() => 'NOT_SERVING' as const)) ?? 'SERVICE_UNKNOWN';
          if (status !== last) {
            last = status;
            call.write({ status });
          }
        };
        const timer = setInterval(() => void tick(), 1000);
        timer.unref();
        call.on('cancelled', () => {
          stopped = true;
          clearInterval(timer);
        });
        void tick();
      },
    };
  }
}

/** A port already taken, as Node's own listen reports it (code EADDRINUSE, with the port). */
function addressInUse(address: string, cause: unknown): Error & { code: 'EADDRINUSE'; port: number } {
  const taken = Number(address.slice(address.lastIndexOf(':') + 1));
  return Object.assign(new Error(`listen EADDRINUSE: address already in use ${address}`, { cause }), {
    code: 'EADDRINUSE' as const,
    port: taken,
  });
}

interface MethodTelemetry {
  name: string;
  span: ServerSpanOptions;
  ok: GrpcCallSeries;
}

async function withTimeout(check: ReadinessCheck, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
