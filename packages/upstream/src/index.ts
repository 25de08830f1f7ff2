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
export { Router, RECENT_FAILURES_WINDOW_MS, type Attempt, type DeploymentHealthView, type RouteHooks, type Routed } from './router.js';
export { failureReason } from './describe.js';
export { Agent, Pool, undiciErrors } from './http-pool.js';
