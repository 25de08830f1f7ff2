import { invalid, isObject, type JsonObject } from '../domain/request.js';

// Fields a response only echoes are still checked as OpenAI checks them: a wrong value is the
// caller's mistake, answered with a 422 naming it, never echoed back or billed.

const TRUNCATION: ReadonlySet<unknown> = new Set(['auto', 'disabled']);

function wholeNumber(body: JsonObject, field: string, min: number, max: number): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min} to ${max}.`);
  }
}

/** OpenAI's metadata: at most 16 pairs, keys up to 64 characters, string values up to 512. */
function checkMetadata(metadata: unknown): void {
  if (metadata === undefined || metadata === null) return;
  if (!isObject(metadata)) throw invalid('metadata', 'must be an object of strings.');
  const entries = Object.entries(metadata);
  if (entries.length > 16) throw invalid('metadata', 'may hold at most 16 pairs.');
  for (const [name, value] of entries) {
    if (name.length > 64) throw invalid('metadata', 'keys are at most 64 characters.');
    if (typeof value !== 'string' || value.length > 512) throw invalid(`metadata.${name}`, 'must be a string of at most 512 characters.');
  }
}

export function checkEchoedFields(body: JsonObject): void {
  for (const flag of ['stream', 'store', 'parallel_tool_calls', 'background'] as const) {
    if (body[flag] !== undefined && body[flag] !== null && typeof body[flag] !== 'boolean') throw invalid(flag, 'must be a boolean.');
  }
  checkMetadata(body.metadata);
  if (body.truncation !== undefined && body.truncation !== null && !TRUNCATION.has(body.truncation)) {
    throw invalid('truncation', 'must be auto or disabled.');
  }
  wholeNumber(body, 'top_logprobs', 0, 20);
  wholeNumber(body, 'max_tool_calls', 1, 1_000_000);
  for (const field of ['service_tier', 'instructions', 'prompt_cache_key', 'safety_identifier', 'user', 'previous_response_id'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') throw invalid(field, 'must be a string.');
  }
}
