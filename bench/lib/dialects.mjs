// What each API's call looks like and how its answer is checked, for bench/chat.mjs: the request
// bodies on chat, the Responses API and Anthropic's Messages API (the same prompt, model and token
// limit on each), their paths, headers and answers' text, and the groups of scenarios that
// measure Responses and Messages against chat on the gateway.

const prompt = 'Say hello in one short sentence, please.';
const messages = [{ role: 'user', content: prompt }];
/**
 * The chat call.
 * @param {string} model
 * @param {boolean} stream
 * @returns {string}
 */
export const body = (model, stream) => JSON.stringify({ model, messages, max_tokens: 64, ...(stream ? { stream: true } : {}) });
/**
 * The same call on the Responses API: the prompt as `input`; `store` left out (true) or false.
 * @param {string} model
 * @param {boolean} stream
 * @param {boolean} [store]
 * @returns {string}
 */
const responsesBody = (model, stream, store = true) =>
  JSON.stringify({
    model,
    input: prompt,
    max_output_tokens: 64,
    ...(stream ? { stream: true } : {}),
    ...(store ? {} : { store: false }),
  });
/**
 * The same call on Anthropic's Messages API: the same messages, model and `max_tokens`.
 * @param {string} model
 * @param {boolean} stream
 * @returns {string}
 */
const messagesBody = (model, stream) => JSON.stringify({ model, max_tokens: 64, messages, ...(stream ? { stream: true } : {}) });

/** An SSE body's `data:` payloads, in order. @param {string} text */
const sseData = (text) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6).trim());

/**
 * The APIs the gateway serves on its chat pipeline, the ways a call is sent and its text read:
 * path, headers (given the gateway key), and the answer's text from a body (plain or streamed,
 * a stream checked to end as its grammar ends).
 * @type {Record<string, { path: string, headers: (key: string) => Record<string, string>, answer: (text: string, stream: boolean) => string }>}
 */
export const dialects = {
  // A stream up to `data: [DONE]`, its text the chunks' delta contents.
  chat: {
    path: '/v1/chat/completions',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    answer: (text, stream) => {
      if (!stream) return JSON.parse(text).choices[0].message.content;
      const events = sseData(text);
      if (events.at(-1) !== '[DONE]') throw new Error(`stream does not end with [DONE]: ${text.slice(-300)}`);
      return events
        .slice(0, -1)
        .map((e) => JSON.parse(e).choices?.[0]?.delta?.content ?? '')
        .join('');
    },
  },
  // A stream up to `response.completed`, its text the `response.output_text.delta` events'.
  responses: {
    path: '/v1/responses',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    answer: (text, stream) => {
      if (!stream)
        return JSON.parse(text)
          .output.filter((/** @type {any} */ item) => item.type === 'message')
          .flatMap((/** @type {any} */ item) => item.content.map((/** @type {any} */ part) => part.text ?? ''))
          .join('');
      const events = sseData(text).map((e) => JSON.parse(e));
      if (events.at(-1)?.type !== 'response.completed') throw new Error(`stream does not end with response.completed: ${text.slice(-300)}`);
      return events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join('');
    },
  },
  // A stream up to `message_stop`, its text the `content_block_delta` events' `text_delta`s.
  messages: {
    path: '/v1/messages',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    answer: (text, stream) => {
      if (!stream) {
        const message = JSON.parse(text);
        if (message.type !== 'message') throw new Error(`not a message: ${text.slice(0, 300)}`);
        return message.content
          .filter((/** @type {any} */ block) => block.type === 'text')
          .map((/** @type {any} */ block) => block.text)
          .join('');
      }
      const events = sseData(text).map((e) => JSON.parse(e));
      if (events.at(-1)?.type !== 'message_stop') throw new Error(`stream does not end with message_stop: ${text.slice(-300)}`);
      return events
        .filter((e) => e.type === 'content_block_delta' && e.delta?.type === 'text_delta')
        .map((e) => e.delta.text)
        .join('');
    },
  },
};

/**
 * The calls measured beside the gateway's chat call: their label, dialect and body.
 * @type {Record<string, { label: string, dialect: string, body: (model: string, stream: boolean) => string }>}
 */
export const calls = {
  responses: { label: 'Responses', dialect: 'responses', body: (model, stream) => responsesBody(model, stream, true) },
  'responses-nostore': {
    label: 'Responses, store: false',
    dialect: 'responses',
    body: (model, stream) => responsesBody(model, stream, false),
  },
  messages: { label: 'Messages', dialect: 'messages', body: messagesBody },
};

/**
 * The groups of scenarios that measure another API against chat on the gateway: the calls each
 * loads beside chat, the ids of its three scenarios, and its table's title and note.
 * @param {string[]} responses the Responses calls measured (BENCH_RESPONSES): `store`, `nostore`
 */
export const againstGroups = (responses) => ({
  responses: {
    title: 'Responses',
    calls: responses.map((v) => (v === 'store' ? 'responses' : 'responses-nostore')),
    ids: { plain50: 'respPlain50', plainSeq: 'respPlainSeq', stream50: 'respStream50' },
    note: [
      '- Responses against chat: `POST /v1/responses` with the chat call’s prompt as `input` (same model, `max_output_tokens` 64), against the same gateway’s chat call in the same rounds; ÷ chat is the Responses row’s figure over its chat row’s (added latency: over chat’s added latency).',
      '  `store` left at its default (true) keeps each response: one more accounting write a call. Only the gateway is measured: the yardstick, the naive chain and Portkey (its open-source gateway has no Responses → chat bridge) serve chat only.',
    ],
  },
  messages: {
    title: 'Messages',
    calls: ['messages'],
    ids: { plain50: 'msgPlain50', plainSeq: 'msgPlainSeq', stream50: 'msgStream50' },
    note: [
      '- Messages against chat: `POST /v1/messages` (`x-api-key`, `anthropic-version: 2023-06-01`) with the chat call’s messages, model and `max_tokens` 64, against the same gateway’s chat call in the same rounds; ÷ chat as above.',
      '  Only the gateway is measured: the yardstick, the naive chain and Portkey (its open-source gateway has no Messages → chat bridge) serve chat only.',
    ],
  },
});
