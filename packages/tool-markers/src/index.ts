import { randomBytes } from 'node:crypto';

// Tool calls on request, for agents run against the gateway with no vendor account: a marker
// `[<tag>:call NAME {json}]` in the last user message asks for a call of an offered function,
// and a tool result as the latest message is answered by quoting it (checked first, or an agent
// would call again forever, the marker still being in its last user message). The demo chat
// provider reads the tag "demo", the test simulators "sim"; one package, so both read alike.

type Json = Record<string, unknown>;

export interface MarkedCall {
  name: string;
  /** The marker's JSON object, compact. */
  arguments: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: MarkedCall;
}

/** A tool result is quoted up to this many characters. */
export const QUOTED_RESULT_CHARS = 500;
/** A function name: OpenAI's pattern, plus the dots some tool servers use. */
const NAME = /\s+([A-Za-z0-9_.-]{1,64})\s*/y;
const CLOSE = /\s*\]/y;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The index of the bracket closing the JSON value opening at `open`, strings skipped; -1 when unbalanced. */
function closingIndex(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The marker whose `call` ends at `start`, and where it ends; undefined when malformed or not offered. */
function markerAt(text: string, start: number, offered: ReadonlySet<string>): { call: MarkedCall; end: number } | undefined {
  NAME.lastIndex = start;
  const name = NAME.exec(text)?.[1];
  const open = NAME.lastIndex;
  if (name === undefined || !offered.has(name) || text[open] !== '{') return undefined;
  const close = closingIndex(text, open);
  if (close < 0) return undefined;
  CLOSE.lastIndex = close + 1;
  if (!CLOSE.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(open, close + 1));
  } catch {
    return undefined;
  }
  return isObject(parsed) ? { call: { name, arguments: JSON.stringify(parsed) }, end: CLOSE.lastIndex } : undefined;
}

/** Every well-formed marker of `tag` in `text` naming an offered function, in order. */
export function findCallMarkers(text: string, tag: string, offered: ReadonlySet<string>): MarkedCall[] {
  const opener = `[${tag}:call`;
  const calls: MarkedCall[] = [];
  let from = 0;
  for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, from)) {
    const found = markerAt(text, at + opener.length, offered);
    if (found) calls.push(found.call);
    from = found ? found.end : at + opener.length;
  }
  return calls;
}

/** The function names a call may use: the offered function tools, narrowed by `tool_choice` (none: no call). */
export function offeredFunctions(body: Json): Set<string> {
  const names = new Set<string>();
  const choice = body.tool_choice;
  if (!Array.isArray(body.tools) || choice === 'none') return names;
  for (const tool of body.tools) {
    const fn = isObject(tool) && tool.type === 'function' ? tool.function : undefined;
    if (isObject(fn) && typeof fn.name === 'string') names.add(fn.name);
  }
  const only = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
  if (typeof only === 'string') return names.has(only) ? new Set([only]) : new Set();
  return names;
}

/** A message's text: a string content, or its text parts joined by spaces. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) if (isObject(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  return texts.join(' ');
}

/** The name of the function whose call `id` an earlier assistant message made. */
function calledName(messages: readonly unknown[], before: number, id: unknown): string | undefined {
  for (let i = before - 1; i >= 0; i -= 1) {
    const calls = (messages[i] as Json).tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      if (isObject(call) && call.id === id && isObject(call.function) && typeof call.function.name === 'string') return call.function.name;
    }
  }
  return undefined;
}

/** When the latest messages are tool results: each quoted on a line of its own; otherwise undefined. */
export function toolResultAnswer(messages: readonly unknown[]): string | undefined {
  let first = messages.length;
  while (first > 0 && isObject(messages[first - 1]) && (messages[first - 1] as Json).role === 'tool') first -= 1;
  if (first === messages.length) return undefined;
  const lines: string[] = [];
  for (let i = first; i < messages.length; i += 1) {
    const message = messages[i] as Json;
    const name = calledName(messages, first, message.tool_call_id);
    const text = contentText(message.content);
    const quoted = text.length > QUOTED_RESULT_CHARS ? `${text.slice(0, QUOTED_RESULT_CHARS)}...` : text;
    lines.push(`Tool ${name ?? '(unknown)'} returned: ${quoted}`);
  }
  return lines.join('\n');
}

/** The calls the last user message asks for: all its markers, or the first when parallel calls are off. */
export function markedToolCalls(body: Json, lastUserText: string, tag: string): ToolCall[] {
  const offered = offeredFunctions(body);
  if (offered.size === 0) return [];
  const marked = findCallMarkers(lastUserText, tag, offered);
  const kept = body.parallel_tool_calls === false ? marked.slice(0, 1) : marked;
  return kept.map((fn) => ({ id: `call_${randomBytes(12).toString('hex')}`, type: 'function', function: fn }));
}

/**
 * A call's streamed deltas as OpenAI sends them: its head (index, id, type, name, empty
 * arguments), then the arguments in several pieces, never splitting a character.
 */
export function toolCallDeltas(call: ToolCall, index: number): Json[] {
  const head = { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } };
  const chars = Array.from(call.function.arguments);
  // About a token's worth a piece, at least two pieces, at most 16 so a long call stays quick.
  const pieces = Math.min(16, Math.max(2, Math.ceil(chars.length / 12)));
  const size = Math.max(1, Math.ceil(chars.length / pieces));
  const deltas: Json[] = [{ tool_calls: [head] }];
  for (let i = 0; i < chars.length; i += size) {
    deltas.push({ tool_calls: [{ index, function: { arguments: chars.slice(i, i + size).join('') } }] });
  }
  return deltas;
}
