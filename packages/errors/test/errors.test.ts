import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { asGatewayError, codeForGrpcStatus, errorCatalog, GatewayError, isErrorCode, toOpenAIError } from '../src/index.js';

describe('error catalog', () => {
  it("gives the specification's statuses", () => {
    expect(errorCatalog.invalid_api_key).toMatchObject({ http: 401, type: 'auth_error', grpc: status.UNAUTHENTICATED });
    expect(errorCatalog.model_not_allowed.http).toBe(401);
    expect(errorCatalog.invalid_request.http).toBe(422);
    expect(errorCatalog.budget_exceeded.http).toBe(422);
    expect(errorCatalog.rate_limit_exceeded.http).toBe(429);
    expect(errorCatalog.upstream_error.http).toBe(502);
    expect(errorCatalog.no_healthy_upstream.http).toBe(503);
    expect(errorCatalog.upstream_timeout.http).toBe(504);
    expect(errorCatalog.internal_error.http).toBe(500);
    for (const spec of Object.values(errorCatalog)) expect(spec.message).not.toBe('');
  });

  it('shapes errors as OpenAI does, with the stable code and param', () => {
    expect(toOpenAIError(new GatewayError('invalid_request', { param: 'temperature', message: 'too hot' }))).toEqual({
      error: { message: 'too hot', type: 'invalid_request_error', code: 'invalid_request', param: 'temperature' },
    });
    expect(toOpenAIError(new GatewayError('invalid_api_key')).error).toMatchObject({
      type: 'auth_error',
      code: 'invalid_api_key',
      param: null,
    });
  });

  it('hides what an unknown failure said', () => {
    const error = asGatewayError(new Error('ECONNREFUSED 10.0.0.7:27017 password=hunter2'));
    expect(error.code).toBe('internal_error');
    expect(toOpenAIError(error).error.message).toBe('Internal error.');
    expect((error.cause as Error).message).toContain('ECONNREFUSED');
  });

  it('maps bare gRPC statuses to codes', () => {
    expect(codeForGrpcStatus(status.UNAVAILABLE)).toBe('service_unavailable');
    expect(codeForGrpcStatus(status.UNKNOWN)).toBe('internal_error');
    expect(isErrorCode('invalid_api_key')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
