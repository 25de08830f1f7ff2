import { codeForGrpcStatus } from '@gateway/errors';
import { describe, expect, it } from 'vitest';
import { serviceError } from '../src/errors.js';
import { abortedCallError, CALL_CANCELLED, CALL_DEADLINE_EXCEEDED, fromServiceError, Metadata, Status } from '../src/index.js';

describe('calls that overran or were cancelled, as the caller hears them', () => {
  it('a deadline a service did not answer within is service_unavailable with Retry-After 5', () => {
    const error = fromServiceError(serviceError(Status.DEADLINE_EXCEEDED, 'Deadline exceeded', new Metadata()));
    expect(error.code).toBe('service_unavailable');
    expect(error.retryAfterSeconds).toBe(5);
  });

  it('a cancelled call has a stable code of its own, not internal_error', () => {
    expect(codeForGrpcStatus(Status.CANCELLED)).toBe('request_cancelled');
    expect(fromServiceError(serviceError(Status.CANCELLED, 'Cancelled on client', new Metadata())).code).toBe('request_cancelled');
  });

  it("a handler failing because its call's signal aborted answers by the abort's reason", () => {
    const cancelled = new AbortController();
    cancelled.abort(CALL_CANCELLED);
    expect(abortedCallError(new Error('aborted'), cancelled.signal)).toMatchObject({ code: 'request_cancelled' });
    const overran = new AbortController();
    overran.abort(CALL_DEADLINE_EXCEEDED);
    expect(abortedCallError(new Error('aborted'), overran.signal)).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 5 });
    const failure = new Error('a bug');
    expect(abortedCallError(failure, new AbortController().signal)).toBe(failure);
  });
});
