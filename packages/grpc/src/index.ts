export { GrpcServer, LIVENESS_SERVICE, requestIdOf, type CallInfo, type GrpcServerOptions, type ReadinessCheck } from './server.js';
export { abortedCallError, CALL_CANCELLED, CALL_DEADLINE_EXCEEDED, CallAbortedError } from './call-signal.js';
export {
  unary,
  createClient,
  createHealthClient,
  checkHealth,
  callMetadata,
  type ClientConstructor,
  DEFAULT_DEADLINE_MS,
  DEFAULT_RETRIES,
  type CallContext,
  type HealthStatus,
} from './client.js';
export { toServiceError, fromServiceError, isServiceError, isTransportUnavailable, DEADLINE_RETRY_AFTER_SECONDS } from './errors.js';
export { channelOptions, MAX_MESSAGE_BYTES, REQUEST_ID_KEY } from './options.js';
export { UPSTREAM_MS_KEY, upstreamMetadata, upstreamMsOf } from './upstream-time.js';
export { inProcessAddress, isInProcessAddress, IN_PROCESS_SCHEME } from './in-process.js';
export { Metadata, Status } from './grpc-js.js';
