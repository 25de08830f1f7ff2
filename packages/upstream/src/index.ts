export {
  UpstreamFailure,
  isRetryable,
  parseRetryAfter,
  sanitizeUpstreamMessage,
  cleanUpstreamText,
  type FailureKind,
  type UpstreamFailureCode,
  type UpstreamFailureOptions,
} from './failure.js';
export { Router, type Attempt, type RouteHooks, type Routed } from './router.js';
export { failureReason } from './describe.js';
