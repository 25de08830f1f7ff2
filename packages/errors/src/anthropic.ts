import type { GatewayError } from './gateway-error.js';

// The same errors in Anthropic's shape and statuses, for the Messages API's routes: a client
// such as Claude Code retries 401, 429 and 5xx, so a refusal it must not retry (budget, access,
// validation) is a 4xx other than those.

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

/** By code where Anthropic's status differs from the OpenAI route's. */
const BY_CODE: Readonly<Record<string, readonly [number, string]>> = {
  invalid_api_key: [401, 'authentication_error'],
  model_not_found: [404, 'not_found_error'],
  model_not_allowed: [403, 'permission_error'],
  budget_exceeded: [402, 'billing_error'],
  invalid_request: [400, 'invalid_request_error'],
  request_too_large: [413, 'request_too_large'],
  upstream_error: [502, 'api_error'],
  upstream_timeout: [504, 'timeout_error'],
  no_healthy_upstream: [503, 'overloaded_error'],
  service_unavailable: [503, 'overloaded_error'],
};

/** By HTTP status class, for the rest. */
function byStatus(http: number): readonly [number, string] {
  if (http === 401) return [401, 'authentication_error'];
  if (http === 403) return [403, 'permission_error'];
  if (http === 404) return [404, 'not_found_error'];
  if (http === 429) return [429, 'rate_limit_error'];
  if (http === 503) return [503, 'overloaded_error'];
  if (http >= 500 || http === 499) return [http, 'api_error'];
  if (http === 405 || http === 409 || http === 413 || http === 414 || http === 431) return [http, 'invalid_request_error'];
  return [400, 'invalid_request_error'];
}

/** The status and body of an error on an Anthropic route. */
export function toAnthropicError(error: GatewayError): { status: number; body: AnthropicErrorBody } {
  const [status, type] = BY_CODE[error.code] ?? byStatus(error.spec.http);
  return { status, body: { type: 'error', error: { type, message: error.message } } };
}
