import { contentText, markedToolCalls, type ToolCall, toolCallDeltas, toolResultAnswer } from '@gateway/tool-markers';

// What the chat simulator answers one request: a quote of the latest tool results when there
// are some (first, so an agent's loop ends), the tool calls its last user message's
// `[sim:call NAME {json}]` markers ask for, or else its configured reply. Both flavors alike:
// DeepSeek calls tools in OpenAI's shape.

/** The marker's tag: `[sim:call NAME {json}]`. */
export const SIM_MARKER_TAG = 'sim';
/** The reasoning trace of a thinking call. */
export const REASONING_TEXT = 'Thinking it through.';

export interface SimTurn {
  /** The text; null when the answer is tool calls. */
  content: string | null;
  /** Empty for a text answer. */
  calls: ToolCall[];
  finish: 'stop' | 'tool_calls';
  /** Completion tokens, reasoning aside: a word a token of the text, or four characters a token of each call's arguments. */
  completionTokens: number;
}

function lastUserText(messages: readonly unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as { role?: unknown; content?: unknown };
    if (message.role === 'user') return contentText(message.content);
  }
  return '';
}

export function simulatorTurn(body: Record<string, unknown>, reply: string): SimTurn {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const results = toolResultAnswer(messages);
  const calls = results === undefined ? markedToolCalls(body, lastUserText(messages), SIM_MARKER_TAG) : [];
  if (calls.length > 0) {
    let completionTokens = 0;
    for (const call of calls) completionTokens += Math.ceil(call.function.arguments.length / 4);
    return { content: null, calls, finish: 'tool_calls', completionTokens };
  }
  const content = results ?? reply;
  return { content, calls, finish: 'stop', completionTokens: content.split(' ').length };
}

/** The streamed deltas before the finish chunk, as vendors send them: the text a word a chunk, or each call's head then its argument pieces. */
export function turnDeltas(turn: SimTurn, thinking: boolean): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: turn.content === null ? null : '' }];
  if (thinking) deltas.push({ reasoning_content: REASONING_TEXT });
  if (turn.content !== null) {
    for (const [i, word] of turn.content.split(' ').entries()) deltas.push({ content: i === 0 ? word : ` ${word}` });
  }
  const calls = turn.calls.flatMap((call, index) => toolCallDeltas(call, index));
  // As OpenAI does: the first call's head rides on the role delta when nothing comes between.
  const [first] = deltas;
  if (first && deltas.length === 1 && calls.length > 0) Object.assign(first, calls.shift());
  deltas.push(...calls);
  return deltas;
}
