import { isObject, type JsonObject } from '../domain/request.js';

// The part of a Response the gateway knows before the upstream answers: what identifies it and
// the request's settings echoed back, each absent one shown as the default OpenAI would apply,
// so clients that read them (SDKs, Codex, agents) see the same object OpenAI would send.

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** What a response says before its answer exists: its id, the caller's model, the request's echoed settings. */
export interface ResponseShell {
  id: string; // resp_…
  model: string; // as the caller sent it
  createdAt: number; // Unix seconds
  /**
   * Request fields a response object echoes, as the caller sent them (tools minus the dropped
   * ones): instructions, tools, tool_choice, parallel_tool_calls, temperature, top_p,
   * max_output_tokens, text, reasoning, metadata, store, previous_response_id, user,
   * safety_identifier, prompt_cache_key, truncation, service_tier. Absent ones get OpenAI's defaults.
   */
  echo: JsonObject;
  /** The caller asked for `reasoning.encrypted_content`: reasoning items carry it. */
  sealReasoning?: (text: string) => string;
  /** Function name to the `namespace` tool it came from: its calls name the namespace again. */
  namespaces?: ReadonlyMap<string, string>;
}

/**
 * What OpenAI shows for a setting the request left out, in the order its responses list them;
 * made fresh for each response (a literal costs less than a deep copy of shared defaults).
 */
function defaults(): JsonObject {
  return {
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    user: null,
    metadata: {},
  };
}

/** Objects the caller may have sent in part (`{effort: 'high'}`): the rest of their fields defaulted. */
function echoed(fallback: unknown, key: string, value: unknown): unknown {
  if (value === undefined) return fallback;
  if (isObject(fallback) && isObject(value) && key !== 'metadata') return { ...fallback, ...value };
  return value;
}

/** The Response object without its answer: `output` empty, `usage` null, the echo with defaults. */
export function responseBase(shell: ResponseShell, status: ResponseStatus): JsonObject {
  const fallbacks = defaults();
  const response: JsonObject = {
    id: shell.id,
    object: 'response',
    created_at: shell.createdAt,
    status,
    // Background mode is not offered: every response runs while its request is open.
    background: false,
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: null,
    incomplete_details: null,
    instructions: echoed(fallbacks.instructions, 'instructions', shell.echo.instructions),
    max_output_tokens: echoed(fallbacks.max_output_tokens, 'max_output_tokens', shell.echo.max_output_tokens),
    max_tool_calls: echoed(fallbacks.max_tool_calls, 'max_tool_calls', shell.echo.max_tool_calls),
    model: shell.model,
    output: [],
  };
  for (const [key, fallback] of Object.entries(fallbacks)) if (!(key in response)) response[key] = echoed(fallback, key, shell.echo[key]);
  // Echoed fields this list does not know follow it; none replaces what the gateway decides.
  for (const [key, value] of Object.entries(shell.echo)) if (!(key in response) && value !== undefined) response[key] = value;
  response.usage = null;
  return response;
}
