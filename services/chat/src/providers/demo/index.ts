import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '../../domain/request.js';
import type { UpstreamCall, UpstreamStream } from '../../upstream/client.js';
import { openaiParams } from '../openai/params.js';
import type { ChatProvider, LocalUpstream } from '../types.js';
import { answer, type DemoAnswer } from './answer.js';
import { toolCallDeltas } from '@gateway/tool-markers';

// The demo provider: answers inside the gateway, deterministically from the request, with real
// usage, so a newcomer without a vendor account sees a chat completion and a stream go through
// routing, budgets, metering and logs exactly as a vendor's would. It needs no credential and
// calls no one; a configuration that does not name it does not have it. It calls tools on
// request (answer.ts), so an agent's whole tool loop runs against it.

/** Pause between streamed chunks: about what a fast hosted model shows. */
const CHUNK_GAP_MS = 15;
/** Words per streamed chunk. */
const WORDS_PER_CHUNK = 3;

const created = () => Math.floor(Date.now() / 1000);

/** The streamed deltas: those sent at once (role, reasoning), then those paced like generated tokens. */
function deltasOf(reply: DemoAnswer): { opening: JsonObject[]; paced: JsonObject[] } {
  const opening: JsonObject[] = [{ role: 'assistant', content: reply.content === null ? null : '' }];
  if (reply.reasoning) opening.push({ reasoning_content: reply.reasoning });
  const paced: JsonObject[] = [];
  if (reply.content !== null) {
    const words = reply.content.split(' ');
    for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) {
      const piece = words.slice(i, i + WORDS_PER_CHUNK).join(' ');
      paced.push({ content: i === 0 ? piece : ` ${piece}` });
    }
  }
  for (const [index, call] of reply.calls.entries()) paced.push(...toolCallDeltas(call, index));
  // As OpenAI does: the first call's head rides on the role delta when nothing comes between.
  const [first] = opening;
  if (first && opening.length === 1 && reply.calls.length > 0) Object.assign(first, paced.shift());
  return { opening, paced };
}

export const demoAnswers: LocalUpstream = {
  async complete(call: UpstreamCall): Promise<JsonObject> {
    const reply = answer(call.body);
    const message: JsonObject = { role: 'assistant', content: reply.content };
    if (reply.reasoning) message.reasoning_content = reply.reasoning;
    if (reply.calls.length > 0) message.tool_calls = reply.calls;
    return {
      id: 'demo',
      object: 'chat.completion',
      created: created(),
      model: String(call.body.model ?? 'demo'),
      choices: [{ index: 0, message, finish_reason: reply.finish }],
      usage: reply.usage,
    };
  },

  async stream(call: UpstreamCall): Promise<UpstreamStream> {
    const reply = answer(call.body);
    const model = String(call.body.model ?? 'demo');
    const withUsage = (call.body.stream_options as JsonObject | undefined)?.include_usage === true;
    const { opening, paced } = deltasOf(reply);
    let closed = false;
    const chunk = (choices: JsonObject[], extra: JsonObject = {}) =>
      JSON.stringify({ id: 'demo', object: 'chat.completion.chunk', created: created(), model, choices, ...extra });
    const choice = (delta: JsonObject, finish: string | null = null) => chunk([{ index: 0, delta, finish_reason: finish }]);
    async function* batches(): AsyncGenerator<string[]> {
      yield opening.map((delta) => choice(delta));
      for (const delta of paced) {
        await sleep(CHUNK_GAP_MS, undefined, { signal: call.signal }).catch(() => undefined);
        if (closed || call.signal.aborted) return;
        yield [choice(delta)];
      }
      yield [choice({}, reply.finish)];
      if (withUsage) yield [chunk([], { usage: reply.usage })];
    }
    return {
      batches: batches(),
      close: () => {
        closed = true;
      },
    };
  },
};

/** Speaks the OpenAI protocol to itself: every parameter an OpenAI endpoint takes, plus reasoning_effort. */
export const demoProvider: ChatProvider = {
  name: 'demo',
  params: { ...openaiParams, reasoning_effort: true },
  roles: { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool', developer: 'developer' },
  message: ({ reasoning_content: _dropped, ...message }) => message,
  local: demoAnswers,
};
