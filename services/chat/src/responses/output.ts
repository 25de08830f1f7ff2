import { isObject, type JsonObject } from '../domain/request.js';
import { readUsage, type ChatUsage } from '../domain/usage.js';
import { newItemId } from './ids.js';
import { responseBase, type ResponseShell } from './shell.js';

// A chat completion as a Response: its reasoning trace, text and tool calls become output items
// in the order a model produces them, its finish reason the response's status, its usage the
// Responses usage block. The item builders are shared with the streamed translation.

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** The Responses usage block for the gateway's counts. */
export function responseUsage(usage: ChatUsage): JsonObject {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.cached_tokens },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}

/** The upstream's reasoning trace, shown as the item's summary: chat upstreams give no other. */
export function reasoningItem(shell: ResponseShell, id: string, text: string | undefined): JsonObject {
  const item: JsonObject = { id, type: 'reasoning', summary: text === undefined ? [] : [{ type: 'summary_text', text }] };
  if (text !== undefined && shell.sealReasoning) item.encrypted_content = shell.sealReasoning(text);
  return item;
}

export function outputText(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function messageItem(id: string, status: ItemStatus, text: string | undefined): JsonObject {
  return { id, type: 'message', status, content: text === undefined ? [] : [outputText(text)], role: 'assistant' };
}

export interface FunctionCall {
  id: string;
  callId: string;
  name: string;
  arguments: string;
}

export function functionCallItem(shell: ResponseShell, call: FunctionCall, status: ItemStatus): JsonObject {
  const item: JsonObject = { id: call.id, type: 'function_call', status, arguments: call.arguments, call_id: call.callId, name: call.name };
  const namespace = shell.namespaces?.get(call.name);
  if (namespace !== undefined) item.namespace = namespace;
  return item;
}

/** The response's status for a chat finish reason: cut short by the token limit or a filter, or done. */
export function finishStatus(finishReason: unknown): { status: 'completed' | 'incomplete'; incomplete_details: JsonObject | null } {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The Response with its answer; `usage` the gateway's counts when given, else the completion's own. */
export function finishedResponse(
  shell: ResponseShell,
  finishReason: unknown,
  output: JsonObject[],
  usage: ChatUsage | undefined,
): JsonObject {
  const { status, incomplete_details } = finishStatus(finishReason);
  const response = responseBase(shell, status);
  response.incomplete_details = incomplete_details;
  response.output = output;
  response.usage = usage ? responseUsage(usage) : null;
  return response;
}

function toolCalls(shell: ResponseShell, value: unknown): JsonObject[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    return functionCallItem(
      shell,
      {
        id: newItemId('fc'),
        callId: typeof call.id === 'string' && call.id !== '' ? call.id : newItemId('call'),
        name: typeof fn.name === 'string' ? fn.name : '',
        arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
      },
      'completed',
    );
  });
}

/** A `chat.completion` as the Response it answers; `usage` overrides the completion's own block. */
export function responseFromCompletion(shell: ResponseShell, completion: JsonObject, usage?: ChatUsage): JsonObject {
  const choice = Array.isArray(completion.choices) && isObject(completion.choices[0]) ? completion.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const output: JsonObject[] = [];
  const reasoning = message.reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') output.push(reasoningItem(shell, newItemId('rs'), reasoning));
  const text = message.content;
  if (typeof text === 'string' && text !== '') output.push(messageItem(newItemId('msg'), 'completed', text));
  output.push(...toolCalls(shell, message.tool_calls));
  const response = finishedResponse(shell, choice.finish_reason, output, usage ?? readUsage(completion.usage));
  // The item the limit or filter cut off is the last one.
  const last = output.at(-1);
  if (response.status === 'incomplete' && last && last.type !== 'reasoning') last.status = 'incomplete';
  return response;
}
