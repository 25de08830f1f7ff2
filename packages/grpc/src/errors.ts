import type * as grpc from '@grpc/grpc-js';
import { Metadata, Status } from './grpc-js.js';
import { codeForGrpcStatus, GatewayError, isErrorCode } from '@gateway/errors';

// How a GatewayError crosses a gRPC hop: the status from the catalog, and the stable code, the
// field at fault and Retry-After in trailing metadata, so the edge answers exactly as the
// service that failed meant it.

const CODE = 'gateway-error-code';
const PARAM = 'gateway-error-param';
const RETRY_AFTER = 'gateway-retry-after';

export function toServiceError(error: GatewayError): Partial<grpc.StatusObject> {
  const metadata = new Metadata();
  metadata.set(CODE, error.code);
  if (error.param !== undefined) metadata.set(PARAM, error.param);
  if (error.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER, String(error.retryAfterSeconds));
  return { code: error.spec.grpc, details: error.message, metadata };
}

function first(metadata: Metadata | undefined, key: string): string | undefined {
  const value = metadata?.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}

/** A failed call as a GatewayError; transport failures without a gateway code map by status. */
export function fromServiceError(error: grpc.ServiceError): GatewayError {
  const code = first(error.metadata, CODE);
  if (code !== undefined && isErrorCode(code)) {
    const retryAfter = first(error.metadata, RETRY_AFTER);
    return new GatewayError(code, {
      message: error.details,
      param: first(error.metadata, PARAM),
      retryAfterSeconds: retryAfter === undefined ? undefined : Number(retryAfter),
      cause: error,
    });
  }
  // A service that did not answer within the call's deadline: to the caller, as good as down
  // for a while, so it hears when to try again (the edge's probes take a few seconds to notice).
  if (error.code === Status.DEADLINE_EXCEEDED) {
    return new GatewayError('service_unavailable', {
      message: 'An internal service did not answer in time; retry shortly.',
      retryAfterSeconds: DEADLINE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  // Internal and transport details stay in the cause, out of the caller's message.
  return new GatewayError(codeForGrpcStatus(error.code), { cause: error });
}

/** Retry-After of a call that overran its deadline: as long as the edge's probes take to mark a hung service down. */
export const DEADLINE_RETRY_AFTER_SECONDS = 5;

/**
 * UNAVAILABLE from the transport (no handler answered it: the connection failed or dropped), as
 * opposed to a handler's own service_unavailable, which carries a gateway code.
 */
export function isTransportUnavailable(error: unknown): error is grpc.ServiceError {
  return isServiceError(error) && error.code === Status.UNAVAILABLE && first(error.metadata, CODE) === undefined;
}

/** A failed call as grpc-js reports it to a client: an Error with the status, its details and trailing metadata. */
export function serviceError(code: Status, details: string, metadata: Metadata): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${Status[code]}: ${details}`), { code, details, metadata });
}

export function isServiceError(value: unknown): value is grpc.ServiceError {
  return value instanceof Error && typeof (value as Partial<grpc.ServiceError>).code === 'number' && 'metadata' in value;
}
