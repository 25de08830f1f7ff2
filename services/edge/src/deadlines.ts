import type { GatewayConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import type { CallContext } from '@gateway/grpc';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Downstream, DownstreamName } from './downstream.js';
import { callContext } from './telemetry.js';

// Each edge route's deadline (docs/architecture.md, "Deadlines"), counted from the request's
// arrival, and what every inner call of the route inherits: what remains of it, and a signal
// that cancels the call when the caller leaves or the probes find its service not answering.

/** Milliseconds per route family; chat's come from the configuration (routes/chat.ts). */
export const ROUTE_DEADLINES_MS = {
  /** GET, list and DELETE /v1/videos: answered from the stored records. */
  videoRead: 2000,
  /** GET /v1/videos/{id}/content: resolving the clip's address (a provider query at most), not its bytes. */
  videoContent: 10_000,
  /** /admin/v1/*. */
  admin: 5000,
  /** GET /v1/usage (GET /v1/models waits only for a first listing, bounded by the catalog's 2 s). */
  usage: 3000,
} as const;

/** Past the provider's timeout, for a video create: the budget hold and the record around the provider's call. */
export const VIDEO_CREATE_MARGIN_MS = 5000;

/**
 * Aborts when the caller's connection closes before the answer has gone out: Node emits 'close'
 * on the response both when it ends and when the connection drops; only the second leaves it
 * unfinished.
 */
export function callerLeft(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** An inner call's context: the request's ids, the route's deadline from its arrival, the caller's signal. */
export function routeCall(request: FastifyRequest, reply: FastifyReply, deadlineMs: number, signal = callerLeft(reply)): CallContext {
  return { ...callContext(request), deadline: Date.now() - reply.elapsedTime + deadlineMs, signal };
}

/**
 * Runs a route's call to `service` under `context`, also cancelled when the probes find the
 * service not answering (a hung process): the caller then hears the 503 the probes' refusal
 * gives, at once, instead of waiting out the rest of the deadline.
 */
export async function guarded<T>(
  downstream: Downstream,
  service: DownstreamName,
  context: CallContext,
  call: (context: CallContext) => Promise<T>,
): Promise<T> {
  const cut = downstream.unreachable(service);
  if (cut.aborted) throw downstream.refusal(service) ?? new GatewayError('service_unavailable');
  // Listeners removed once the call ends: the probes' signal lives as long as the edge.
  const controller = new AbortController();
  const abort = () => controller.abort();
  cut.addEventListener('abort', abort, { once: true });
  context.signal?.addEventListener('abort', abort, { once: true });
  try {
    return await call({ ...context, signal: controller.signal });
  } catch (error) {
    if (cut.aborted && !context.signal?.aborted) throw downstream.refusal(service) ?? error;
    throw error;
  } finally {
    cut.removeEventListener('abort', abort);
    context.signal?.removeEventListener('abort', abort);
  }
}

/** A video create's deadline: the longest provider timeout of any video deployment, and the margin. */
export function videoCreateDeadlineMs(config: GatewayConfig): number {
  let longest = config.video.timeoutMs;
  for (const group of config.groups) {
    if (group.mode !== 'video') continue;
    for (const deployment of group.deployments) longest = Math.max(longest, deployment.timeoutMs ?? 0);
  }
  return longest + VIDEO_CREATE_MARGIN_MS;
}
