import { cleanUpstreamText, type UpstreamFailure } from './failure.js';

/**
 * What an operator's log line says about a failed attempt, in one short phrase and without a
 * stack: the upstream's own words when it gave some, else the network error's code (ECONNREFUSED,
 * UND_ERR_SOCKET…), else the kind and status. Cleaned of URLs and anything key-like.
 */
export function failureReason(failure: UpstreamFailure): string {
  if (failure.callerMessage) return failure.callerMessage;
  const cause = failure.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (failure.kind === 'timeout') return 'no answer within the timeout';
  if (typeof cause?.message === 'string') return cleanUpstreamText(cause.message) ?? failure.message;
  return failure.message;
}
