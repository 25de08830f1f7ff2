import type { JsonObject } from '../../domain/request.js';
import { markedToolCalls, type ToolCall, toolResultAnswer } from '@gateway/tool-markers';
import { cut, type Reading, read, usage } from './usage.js';

// What the demo model answers a request, the same whether it is then sent whole or streamed:
// a quote of the latest tool results when there are some (first, so an agent's loop ends), the
// tool calls its last user message's `[demo:call NAME {json}]` markers ask for, or else a short
// text quoting that message.

/** The marker's tag: `[demo:call NAME {json}]`. */
export const DEMO_MARKER_TAG = 'demo';

export interface DemoAnswer {
  /** The text; null when the answer is tool calls. */
  content: string | null;
  /** Empty for a text answer. */
  calls: ToolCall[];
  reasoning: string | undefined;
  finish: 'stop' | 'length' | 'tool_calls';
  usage: JsonObject;
}

/** The reply: the same for the same request, short, and saying what it is. */
function reply(reading: Reading): string {
  const quoted = reading.question.length > 120 ? `${reading.question.slice(0, 117)}...` : reading.question;
  const seen = reading.images > 0 ? ` and ${reading.images} image${reading.images > 1 ? 's' : ''}` : '';
  return `This is the gateway's demo model answering "${quoted}"${seen}. No provider was called; routing, budgets and metering ran as for a real one.`;
}

function thinking(body: JsonObject): string | undefined {
  const effort = body.reasoning_effort;
  if (effort === undefined || effort === 'none') return undefined;
  return 'The user wants to see the gateway work; a short, honest answer shows it.';
}

function maxTokensOf(body: JsonObject): number | undefined {
  const limit = body.max_completion_tokens ?? body.max_tokens;
  return typeof limit === 'number' ? limit : undefined;
}

export function answer(body: JsonObject): DemoAnswer {
  const reading = read(body);
  const reasoning = thinking(body);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const results = toolResultAnswer(messages);
  // A call's arguments are never cut at max_tokens: half a JSON object is no call at all.
  const calls = results === undefined ? markedToolCalls(body, reading.question, DEMO_MARKER_TAG) : [];
  if (calls.length > 0) {
    const completion = calls.flatMap((call) => [call.function.name, call.function.arguments]);
    return { content: null, calls, reasoning, finish: 'tool_calls', usage: usage(reading, completion, reasoning) };
  }
  const limit = maxTokensOf(body);
  const text = results ?? reply(reading);
  const content = limit === undefined ? text : cut(text, limit);
  // Cut at max_tokens, as a model stops: `length`, so every dialect says why it ended.
  const finish = content === text ? 'stop' : 'length';
  return { content, calls, reasoning, finish, usage: usage(reading, [content], reasoning) };
}
