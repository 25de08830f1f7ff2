import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '../../domain/request.js';
import type { UpstreamCall, UpstreamStream } from '../../upstream/client.js';
import { openaiParams } from '../openai/params.js';
import type { ChatProvider, LocalUpstream } from '../types.js';
import { cut, type Reading, read, usage } from './usage.js';

// The demo provider: answers inside the gateway, deterministically from the request, with real
// usage, so a newcomer without a vendor account sees a chat completion and a stream go through
// routing, budgets, metering and logs exactly as a vendor's would. It needs no credential and
// calls no one; a configuration that does not name it does not have it.

/** Pause between streamed chunks: about what a fast hosted model shows. */
const CHUNK_GAP_MS = 15;
/** Words per streamed chunk. */
const WORDS_PER_CHUNK = 3;

/** The reply: the same for the same request, short, and saying what it is. */
function reply(reading: Reading, maxTokens: number | undefined): string {
  const quoted = reading.question.length > 120 ? `${reading.question.slice(0, 117)}...` : reading.question;
  const seen = reading.images > 0 ? ` and ${reading.images} image${reading.images > 1 ? 's' : ''}` : '';
  const text = `This is the gateway's demo model answering "${quoted}"${seen}. No provider was called; routing, budgets and metering ran as for a real one.`;
  return maxTokens === undefined ? text : cut(text, maxTokens);
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

const created = () => Math.floor(Date.now() / 1000);

export const demoAnswers: LocalUpstream = {
  async complete(call: UpstreamCall): Promise<JsonObject> {
    const reading = read(call.body);
    const answer = reply(reading, maxTokensOf(call.body));
    const reasoning = thinking(call.body);
    return {
      id: 'demo',
      object: 'chat.completion',
      created: created(),
      model: String(call.body.model ?? 'demo'),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer, ...(reasoning ? { reasoning_content: reasoning } : {}) },
          finish_reason: 'stop',
        },
      ],
      usage: usage(reading, answer, reasoning),
    };
  },

  async stream(call: UpstreamCall): Promise<UpstreamStream> {
    const reading = read(call.body);
    const answer = reply(reading, maxTokensOf(call.body));
    const reasoning = thinking(call.body);
    const model = String(call.body.model ?? 'demo');
    const withUsage = (call.body.stream_options as JsonObject | undefined)?.include_usage === true;
    const words = answer.split(' ');
    let closed = false;
    const chunk = (delta: JsonObject, finish: string | null, extra: JsonObject = {}) =>
      JSON.stringify({
        id: 'demo',
        object: 'chat.completion.chunk',
        created: created(),
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...extra,
      });
    async function* batches(): AsyncGenerator<string[]> {
      yield [chunk({ role: 'assistant', content: '' }, null)];
      if (reasoning) yield [chunk({ reasoning_content: reasoning }, null)];
      for (let i = 0; i < words.length && !closed; i += WORDS_PER_CHUNK) {
        await sleep(CHUNK_GAP_MS, undefined, { signal: call.signal }).catch(() => undefined);
        if (closed || call.signal.aborted) return;
        const piece = words.slice(i, i + WORDS_PER_CHUNK).join(' ');
        yield [chunk({ content: i === 0 ? piece : ` ${piece}` }, null)];
      }
      yield [chunk({}, 'stop')];
      if (withUsage)
        yield [
          JSON.stringify({
            id: 'demo',
            object: 'chat.completion.chunk',
            created: created(),
            model,
            choices: [],
            usage: usage(reading, answer, reasoning),
          }),
        ];
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
