import type * as grpc from '@grpc/grpc-js';
import { loadGrpcJs, Metadata } from './grpc-js.js';
import { protos, type HealthCheckResponse__Output, type HealthClient } from '@gateway/protos';
import type { RequestContext } from '@gateway/logging';
import { injectTraceContext } from '@gateway/telemetry';
import { fromServiceError, isServiceError, isTransportUnavailable } from './errors.js';
import { isInProcessAddress } from './in-process.js';
import { createInProcessClient } from './in-process-client.js';
import { channelOptions, REQUEST_ID_KEY } from './options.js';
import { cancelledBeforeStart, cancelOnAbort } from './call-abort.js';

export const DEFAULT_DEADLINE_MS = 5000;
/** Attempts after the first, only for UNAVAILABLE (the call never reached a handler). */
export const DEFAULT_RETRIES = 2;
const RETRY_BACKOFF_MS = 25;

export interface CallContext extends RequestContext {
  /** Milliseconds from now; defaults to 5 s. */
  deadlineMs?: number;
  /**
   * An absolute deadline, Unix milliseconds (a handler's CallInfo.deadline; Infinity for none):
   * the call ends at the earlier of this and `deadlineMs` from now.
   */
  deadline?: number;
  /**
   * Cancels the call when it aborts (a handler's CallInfo.signal): the call ends with CANCELLED,
   * the server's handler sees its own signal abort, and no retry follows.
   */
  signal?: AbortSignal;
  /** Retries on UNAVAILABLE; defaults to 2. Set 0 for calls that must not repeat. */
  retries?: number;
  /** Receives the response's leading metadata (before the response itself). */
  onResponseMetadata?: (metadata: Metadata) => void;
}

// A generated client method is overloaded; conditional types see its last overload,
// `(argument, callback)`, which is enough to read the request and response types off it.
type AnyUnaryMethod = (...args: never[]) => grpc.ClientUnaryCall;
export type RequestOf<M> = M extends (argument: infer Req, callback: grpc.requestCallback<infer _Res>) => grpc.ClientUnaryCall
  ? Req
  : never;
export type ResponseOf<M> = M extends (argument: never, callback: grpc.requestCallback<infer Res>) => grpc.ClientUnaryCall ? Res : never;
type FullUnaryMethod = (
  argument: unknown,
  metadata: Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<unknown>,
) => grpc.ClientUnaryCall;

/** The request id and the current trace context (W3C traceparent/tracestate) for an outgoing call. */
export function callMetadata(context: CallContext): Metadata {
  const metadata = new Metadata();
  if (context.requestId) metadata.set(REQUEST_ID_KEY, context.requestId);
  injectTraceContext(metadata, context.scope);
  return metadata;
}

/**
 * One unary call with a deadline and the request id in metadata, retried only on UNAVAILABLE
 * while the deadline allows and the signal has not aborted; failures arrive as GatewayError.
 */
export async function unary<M extends AnyUnaryMethod>(
  client: grpc.Client,
  method: M,
  request: RequestOf<M>,
  context: CallContext = {},
): Promise<ResponseOf<M>> {
  const { signal } = context;
  const relative = Date.now() + (context.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const deadline = context.deadline !== undefined && context.deadline < relative ? context.deadline : relative;
  const metadata = callMetadata(context);
  let retries = context.retries ?? DEFAULT_RETRIES;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (signal?.aborted) throw cancelledBeforeStart();
      return await new Promise<ResponseOf<M>>((resolve, reject) => {
        let detach: (() => void) | undefined;
        const call = (method as unknown as FullUnaryMethod).call(client, request, metadata, { deadline }, (error, response) => {
          detach?.();
          if (error) reject(error);
          else resolve(response as ResponseOf<M>);
        });
        if (context.onResponseMetadata) call.on('metadata', context.onResponseMetadata);
        if (signal) detach = cancelOnAbort(call, signal);
      });
    } catch (error) {
      const backoff = RETRY_BACKOFF_MS * 2 ** attempt;
      if (isTransportUnavailable(error) && retries > 0 && Date.now() + backoff < deadline && !signal?.aborted) {
        retries -= 1;
        await new Promise((resolve) => setTimeout(resolve, backoff));
        continue;
      }
      throw isServiceError(error) ? fromServiceError(error) : error;
    }
  }
}

/** A generated client class, which carries its service's definition (proto-loader's `service`). */
export type ClientConstructor<C extends grpc.Client> = (new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => C) & { service: grpc.ServiceDefinition };

/**
 * Builds a client for one of the contracts' services: for an inproc: address, one that calls the
 * server published there in this process (no socket, no HTTP/2); for any other target, grpc-js's,
 * with the gateway's channel options and `extraOptions`.
 */
export function createClient<C extends grpc.Client>(ctor: ClientConstructor<C>, address: string, extraOptions: grpc.ClientOptions = {}): C {
  if (isInProcessAddress(address)) return createInProcessClient(ctor.service, address) as C;
  return new ctor(address, loadGrpcJs().credentials.createInsecure(), { ...channelOptions, ...extraOptions });
}

export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNREACHABLE';

/** Asks a service's grpc.health.v1 whether it serves; never throws. */
export async function checkHealth(client: HealthClient, service = '', deadlineMs = 1000): Promise<HealthStatus> {
  try {
    const response: HealthCheckResponse__Output = await unary(client, client.Check, { service }, { deadlineMs, retries: 0 });
    return response.status === 'SERVING' ? 'SERVING' : 'NOT_SERVING';
  } catch {
    return 'UNREACHABLE';
  }
}

export function createHealthClient(address: string): HealthClient {
  // A connection of its own, not shared through grpc-js's global pool with the service's other
  // clients: closing it ends the connection at once, so a server shutting down is not kept
  // waiting by a probe channel that is already closed.
  return createClient(protos().grpc.health.v1.Health, address, { 'grpc.use_local_subchannel_pool': 1 });
}
