import type * as grpc from '@grpc/grpc-js';
import { GatewayError } from '@gateway/errors';
import { DEADLINE_RETRY_AFTER_SECONDS } from './errors.js';

/** Why a call's signal aborted, with a stable code: its caller cancelled it, or its deadline passed. */
export class CallAbortedError extends Error {
  readonly code: 'CANCELLED' | 'DEADLINE_EXCEEDED';

  constructor(code: 'CANCELLED' | 'DEADLINE_EXCEEDED', message: string) {
    super(message);
    this.name = 'CallAbortedError';
    this.code = code;
  }
}

/**
 * What a handler that failed because its call's signal aborted answers with (no one may read
 * it, but logs and metrics do): request_cancelled, or service_unavailable for a passed deadline.
 * Any other failure, or one that is already a GatewayError, stays as it is.
 */
export function abortedCallError(error: unknown, signal: AbortSignal): unknown {
  if (error instanceof GatewayError || !signal.aborted) return error;
  const reason: unknown = signal.reason;
  const code = reason instanceof CallAbortedError ? reason.code : 'CANCELLED';
  return code === 'CANCELLED'
    ? new GatewayError('request_cancelled', { cause: error })
    : new GatewayError('service_unavailable', {
        message: 'The call overran its deadline.',
        retryAfterSeconds: DEADLINE_RETRY_AFTER_SECONDS,
        cause: error,
      });
}

// One shared instance of each, since building an Error per call is costly.
export const CALL_CANCELLED = new CallAbortedError('CANCELLED', 'the caller cancelled the call');
export const CALL_DEADLINE_EXCEEDED = new CallAbortedError('DEADLINE_EXCEEDED', "the call's deadline passed");

/**
 * A cancel this close to the deadline is the deadline's: timers run on the event loop's cached
 * clock, so a deadline timer may fire a few milliseconds before Date.now() reaches it.
 */
const DEADLINE_SLACK_MS = 20;

/** A server call's deadline as Unix milliseconds; Infinity when the caller set none. */
export function deadlineOf(deadline: grpc.Deadline): number {
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

interface CancellableCall {
  once(event: 'cancelled', listener: () => void): unknown;
}

/**
 * A signal that aborts when the call is cancelled (its caller cancelled, or its deadline passed:
 * both transports end the call and emit 'cancelled' then, for unary calls and streams alike),
 * until `finish()`: grpc-js also emits 'cancelled' once a call has been answered.
 */
export function callSignal(call: CancellableCall, deadline: number): { signal: AbortSignal; finish: () => void } {
  const controller = new AbortController();
  let finished = false;
  call.once('cancelled', () => {
    if (finished) return;
    controller.abort(Date.now() + DEADLINE_SLACK_MS >= deadline ? CALL_DEADLINE_EXCEEDED : CALL_CANCELLED);
  });
  return {
    signal: controller.signal,
    finish: () => {
      finished = true;
    },
  };
}
