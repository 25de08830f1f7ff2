import type * as grpc from '@grpc/grpc-js';
import { Metadata, Status } from './grpc-js.js';
import { serviceError } from './errors.js';

// A client call tied to a caller's AbortSignal (CallContext.signal): an abort cancels it, as
// grpc-js's call.cancel() does on both transports, and the caller reads CANCELLED.

/** What a call whose signal had aborted before it started fails with: what grpc-js's cancel gives. */
export function cancelledBeforeStart(): grpc.ServiceError {
  return serviceError(Status.CANCELLED, 'Cancelled on client', new Metadata());
}

/** Cancels `call` when `signal` aborts; returns what stops listening (call it once the call has ended). */
export function cancelOnAbort(call: grpc.ClientUnaryCall, signal: AbortSignal): () => void {
  const onAbort = () => call.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
