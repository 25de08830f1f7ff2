import { type Add, JSON_TYPE, json } from './case-kit.js';
import { COUNT_TOKENS_SKIPS, MESSAGES_BASE, MESSAGES_FIELDS, RESPONSES_BASE, RESPONSES_FIELDS } from './fields.js';
import { KEY_ROUTES } from './routes.js';

// The hostile table's parts for the other chat dialects: the Responses API and Anthropic's
// Messages API (whose refusals are in Anthropic's shape).

/** The Responses API: every field with wrong values, ids and pages. */
export function responsesCases(add: Add): void {
  for (const [field, values] of Object.entries(RESPONSES_FIELDS)) {
    for (const value of values)
      add({
        name: `responses ${field}=${json(value)?.slice(0, 30)}`,
        method: 'POST',
        path: '/v1/responses',
        auth: 'key',
        headers: JSON_TYPE,
        body: json({ ...RESPONSES_BASE, [field]: value }),
      });
  }
  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'order=sideways']) {
    add({ name: `input_items ${query}`, method: 'GET', path: `/v1/responses/resp_0123456789abcdef/input_items?${query}`, auth: 'key' });
  }
  for (const id of ['x', 'resp_', 'resp_../../x', `resp_${'a'.repeat(100)}`, 'chatcmpl-0123456789abcdef'])
    add({ name: `response id ${id.slice(0, 20)}`, method: 'GET', path: `/v1/responses/${encodeURIComponent(id)}`, auth: 'key' });
}

/** The Messages API: every field, plain and streamed, count_tokens, x-api-key and the Anthropic model list. */
export function messagesCases(add: Add): void {
  for (const [field, values] of Object.entries(MESSAGES_FIELDS)) {
    for (const value of values) {
      const body = json({ ...MESSAGES_BASE, [field]: value });
      add({
        name: `messages ${field}=${json(value)?.slice(0, 40)}`,
        method: 'POST',
        path: '/v1/messages',
        auth: 'key',
        headers: JSON_TYPE,
        body,
      });
      add({
        name: `messages streamed ${field}=${json(value)?.slice(0, 40)}`,
        method: 'POST',
        path: '/v1/messages',
        auth: 'key',
        headers: JSON_TYPE,
        body: json({ ...MESSAGES_BASE, stream: true, [field]: value }),
      });
      if (!COUNT_TOKENS_SKIPS.has(field))
        add({
          name: `count_tokens ${field}=${json(value)?.slice(0, 40)}`,
          method: 'POST',
          path: '/v1/messages/count_tokens',
          auth: 'key',
          headers: JSON_TYPE,
          body,
        });
    }
  }
  for (const field of ['max_tokens', 'temperature', 'top_p', 'top_k']) {
    add({
      name: `messages ${field}=1e309`,
      method: 'POST',
      path: '/v1/messages',
      auth: 'key',
      headers: JSON_TYPE,
      // JSON.parse reads 1e309 as Infinity: the field alone, once.
      body: `{"model":"demo-chat",${field === 'max_tokens' ? '' : '"max_tokens":10,'}"messages":[{"role":"user","content":"hi"}],"${field}":1e309}`,
    });
  }
  // Without the field it cannot do without.
  for (const drop of ['model', 'max_tokens', 'messages']) {
    const { [drop as keyof typeof MESSAGES_BASE]: _, ...rest } = MESSAGES_BASE;
    add({ name: `messages without ${drop}`, method: 'POST', path: '/v1/messages', auth: 'key', headers: JSON_TYPE, body: json(rest) });
  }
  // The key from x-api-key: wrong, empty, or naming another key than the bearer; Anthropic's 401 in each case.
  for (const [method, path] of KEY_ROUTES.filter(([, p]) => p.startsWith('/v1/messages'))) {
    const body = json(MESSAGES_BASE);
    const unauthorized = { status: 401, code: 'invalid_api_key' };
    for (const [name, auth, headers] of [
      ['x-api-key wrong', 'none', { 'x-api-key': 'sk-wrong-0000000000000000000000' }],
      ['x-api-key empty', 'none', { 'x-api-key': '' }],
      ['x-api-key and a bearer naming another key', 'key', { 'x-api-key': 'sk-another-000000000000000000000' }],
      ['x-api-key and a malformed bearer', 'malformed', { 'x-api-key': 'sk-another-000000000000000000000' }],
    ] as const) {
      add({
        name,
        method,
        path,
        auth,
        headers: { ...JSON_TYPE, 'anthropic-version': '2023-06-01', ...headers },
        body,
        expected: unauthorized,
      });
    }
  }
  // The model list in Anthropic's dialect: its error shape for the same refusals.
  for (const path of ['/v1/models', '/v1/models/demo-chat']) {
    for (const auth of ['none', 'malformed', 'wrong-key'] as const)
      add({
        name: `anthropic-version auth ${auth}`,
        method: 'GET',
        path,
        auth,
        headers: { 'anthropic-version': '2023-06-01' },
        expected: { status: 401, code: 'invalid_api_key' },
      });
  }
  for (const id of ['no-such-model', 'demo-chat%2Fx', 'a'.repeat(101)])
    add({
      name: `anthropic-version model ${id.slice(0, 20)}`,
      method: 'GET',
      path: `/v1/models/${id}`,
      auth: 'key',
      headers: { 'anthropic-version': '2023-06-01' },
      expected: { status: 404, code: 'not_found' },
    });
  for (const path of ['/v1/messages/x', '/v1/messages/count_tokens/x', '/v1/messages/batches'])
    add({
      name: 'unknown messages path',
      method: 'POST',
      path,
      auth: 'key',
      headers: JSON_TYPE,
      body: json(MESSAGES_BASE),
      expected: { status: 404, code: 'not_found' },
    });
}
