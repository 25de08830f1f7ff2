// The hostile-input table: requests a caller at fault might send, over every route and method
// (admin routes included). Each case expects a 4xx in the OpenAI error shape (Anthropic's on the
// Messages routes, and on the model list asked with `anthropic-version`); the suite also checks
// no secret is echoed and the process stays up. Generated from a few lists, so a new
// route or field is one line here.

export interface HostileCase {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Who calls: a key of the demo config, the admin token, or nobody. */
  auth: 'key' | 'admin' | 'none' | 'wrong-key' | 'wrong-admin' | 'malformed';
  /** The exact answer, where one is due: status, error code, and the Allow header (none: absent). */
  expected?: { status: number; code: string; allow?: string };
}

/** Whether the gateway answers this case in Anthropic's dialect: the Messages routes, and the model list asked with `anthropic-version`. */
export function speaksAnthropic(c: Pick<HostileCase, 'path' | 'headers'>): boolean {
  const path = c.path.split('?')[0] ?? '';
  const messages = path === '/v1/messages' || path.startsWith('/v1/messages/');
  const models = path === '/v1/models' || path.startsWith('/v1/models/');
  return messages || (models && c.headers?.['anthropic-version'] !== undefined);
}

export const KEY_ROUTES: readonly [string, string][] = [
  ['POST', '/v1/chat/completions'],
  ['POST', '/v1/responses'],
  ['POST', '/v1/messages'],
  ['POST', '/v1/messages/count_tokens'],
  ['GET', '/v1/responses/resp_0123456789abcdef'],
  ['DELETE', '/v1/responses/resp_0123456789abcdef'],
  ['GET', '/v1/responses/resp_0123456789abcdef/input_items'],
  ['GET', '/v1/models'],
  ['GET', '/v1/models/demo-chat'],
  ['GET', '/v1/usage'],
  ['GET', '/v1/usage/logs'],
  ['POST', '/v1/videos'],
  ['GET', '/v1/videos'],
  ['GET', '/v1/videos/video_0123456789abcdef'],
  ['DELETE', '/v1/videos/video_0123456789abcdef'],
  ['GET', '/v1/videos/video_0123456789abcdef/content'],
];

export const ADMIN_ROUTES: readonly [string, string][] = [
  ['POST', '/admin/v1/keys'],
  ['GET', '/admin/v1/keys'],
  ['GET', '/admin/v1/keys/key_0000000000000000'],
  ['PATCH', '/admin/v1/keys/key_0000000000000000'],
  ['POST', '/admin/v1/keys/key_0000000000000000/rotate'],
  ['DELETE', '/admin/v1/keys/key_0000000000000000'],
  ['POST', '/admin/v1/teams'],
  ['GET', '/admin/v1/teams'],
  ['GET', '/admin/v1/teams/team_0000000000000000'],
  ['PATCH', '/admin/v1/teams/team_0000000000000000'],
  ['DELETE', '/admin/v1/teams/team_0000000000000000'],
  ['GET', '/admin/v1/spend/logs'],
  ['GET', '/admin/v1/spend/daily'],
  ['GET', '/admin/v1/spend/top'],
  ['GET', '/admin/v1/overview'],
  ['GET', '/admin/v1/videos'],
  ['GET', '/admin/v1/upstreams'],
  ['GET', '/admin/v1/audit'],
];

/** Routes anyone may call: the dashboard's page and what its sign-in offers (a built file's route exists only once built). */
export const PUBLIC_ROUTES: readonly [string, string][] = [
  ['GET', '/ui/'],
  ['GET', '/ui/config.json'],
];

const BODY_ROUTES: readonly [string, string, 'key' | 'admin'][] = [
  ['POST', '/v1/chat/completions', 'key'],
  ['POST', '/v1/responses', 'key'],
  ['POST', '/v1/messages', 'key'],
  ['POST', '/v1/messages/count_tokens', 'key'],
  ['POST', '/v1/videos', 'key'],
  ['POST', '/admin/v1/keys', 'admin'],
  ['PATCH', '/admin/v1/keys/key_0000000000000000', 'admin'],
  ['POST', '/admin/v1/keys/key_0000000000000000/rotate', 'admin'],
  ['POST', '/admin/v1/teams', 'admin'],
  ['PATCH', '/admin/v1/teams/team_0000000000000000', 'admin'],
];

const MALFORMED_JSON = [
  '{',
  '}',
  '{"model":',
  '{"model":"demo-chat",}',
  "{'model':'demo-chat'}",
  '{"model":"demo-chat" "messages":[]}',
  'nul',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":01}',
  '{"a":"\\x"}',
  '{"a":"\\u12"}',
  '\u0000',
  '{"a":1}garbage',
  '[1,2',
  '{"a":[}',
  '\ufeff{"a":1',
  '{"a":"unterminated}',
  '{"a" 1}',
];

const NOT_OBJECTS = ['[]', '[{"model":"demo-chat"}]', '"demo-chat"', '42', 'true', 'null', '""', '[[[]]]'];

const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
];

/** Values of the wrong type for anything. */
const WRONG: readonly unknown[] = ['x', 7, -1, 1.5, true, null, [], {}, [1, 2], { a: 1 }, '', 1e300, -1e300, '1e309'];

const CHAT_BASE = { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] };

/** Each documented chat field, with wrong values the schema must refuse (never forwarded, never billed). */
const CHAT_FIELDS: Record<string, readonly unknown[]> = {
  temperature: ['1', true, -0.1, 2.5, [], {}],
  top_p: ['0.5', true, -1, 1.01, [], {}],
  n: ['1', 0, -1, 1.5, 129, true],
  stop: [5, true, {}, [1], ['a', 'b', 'c', 'd', 'e'], [[]]],
  max_tokens: ['10', 0, -5, 1.5, true, 1e9],
  max_completion_tokens: ['10', 0, 2.5, true, {}, 1e9],
  presence_penalty: ['1', 2.1, -2.1, true, [], {}],
  frequency_penalty: ['1', 3, -3, false, [], {}],
  logit_bias: ['x', 5, [], { abc: 1 }, { '1': 101 }, { '1': 'x' }],
  logprobs: ['true', 1, [], {}, 'yes', 0],
  top_logprobs: ['3', -1, 21, 1.5, true, {}],
  user: [5, true, [], {}, 'x'.repeat(600), 1.5],
  seed: ['1', 1.5, true, [], {}, 'x'],
  tools: ['x', 5, {}, [5], [{ type: 'retrieval' }], [{ type: 'function' }]],
  tool_choice: [5, true, 'sometimes', [], { type: 'function' }, { type: 'x', function: { name: 'f' } }],
  parallel_tool_calls: ['true', 1, [], {}, 'no', 0],
  response_format: ['json', 5, true, [], { type: 'xml' }, { type: 'json_schema' }],
  stream: ['true', 1, [], {}, 'yes', 0],
  stream_options: ['x', 5, true, [], { include_usage: 'yes' }, { include_usage: 1 }],
  reasoning_effort: [5, true, [], {}, 'extreme', ''],
  messages: [
    'x',
    5,
    true,
    {},
    [],
    [5],
    [{ role: 'wizard', content: 'x' }],
    [{ role: 'user', content: 5 }],
    [{ role: 'user' }],
    [{ content: 'x' }],
  ],
  model: [5, true, [], {}, '', 'no-such-model'],
};

const RESPONSES_BASE = { model: 'demo-chat', input: 'hi' };

/** Each Responses field with wrong values: refused before anything is held, sent or stored. */
const RESPONSES_FIELDS: Record<string, readonly unknown[]> = {
  model: [5, true, [], {}, '', 'no-such-model', 'demo-video'],
  input: [
    5,
    true,
    {},
    [],
    [5],
    [null],
    [{ type: 'message', role: 'wizard', content: 'x' }],
    [{ role: 'user', content: 5 }],
    [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }],
    [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }],
    [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x' }] }],
    [{ role: 'user', content: [{ type: 'input_text' }] }],
    [{ type: 'function_call' }],
    [{ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }],
    [{ type: 'function_call_output', output: 'x' }],
    [{ type: 'no_such_item' }],
    [{ type: 5 }],
  ],
  instructions: [5, true, [], {}],
  tools: ['x', 5, {}, [5], [{}], [{ type: 'function' }], [{ type: 'function', name: 'f', parameters: 5 }], [{ type: 'namespace' }]],
  tool_choice: [5, true, [], 'sometimes', { type: 'function' }, { type: 'function', name: '' }],
  parallel_tool_calls: ['true', 1, [], {}],
  max_output_tokens: ['10', 0, -5, 1.5, true, 1e9],
  temperature: ['1', true, -0.1, 2.5, [], {}],
  top_p: ['0.5', true, -1, 1.01, [], {}],
  reasoning: ['x', 5, [], { effort: 'extreme' }, { effort: 5 }],
  text: [
    'x',
    5,
    [],
    { format: 'x' },
    { format: { type: 'xml' } },
    { format: { type: 'json_schema' } },
    { format: { type: 'json_schema', name: 'x', schema: 5 } },
  ],
  metadata: ['x', 5, [], { a: 5 }, Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])), { a: 'x'.repeat(600) }],
  user: [5, true, [], {}],
  safety_identifier: [5, true, []],
  prompt_cache_key: [5, true, {}],
  include: ['x', 5, [5], {}],
  store: ['true', 1, []],
  stream: ['true', 1, [], {}],
  background: [true, 'yes', 1],
  conversation: ['conv_1', { id: 'conv_1' }],
  previous_response_id: [5, true, {}, 'resp_0123456789abcdef', 'x'],
  truncation: ['sometimes', 5, true],
  top_logprobs: [-1, 21, 1.5, '3'],
  max_tool_calls: [0, -1, 'x'],
};

const MESSAGES_BASE = { model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

const user = (...content: unknown[]) => [{ role: 'user', content }];
const assistant = (...content: unknown[]) => [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content },
];

/**
 * Each Messages field with wrong values: refused (Anthropic's error shape) before anything is
 * held or sent. `max_tokens` above a group's limit is capped, not refused, and server tools are
 * dropped, so neither is here.
 */
export const MESSAGES_FIELDS: Record<string, readonly unknown[]> = {
  model: [5, true, null, [], {}, '', 'no-such-model', 'demo-video'],
  max_tokens: ['10', 0, -5, 1.5, true, null, [], {}],
  messages: [
    'x',
    5,
    true,
    null,
    {},
    [],
    [5],
    [null],
    [[]],
    [{ role: 'wizard', content: 'x' }],
    [{ role: 'tool', content: 'x' }],
    [{ role: 5, content: 'x' }],
    [{ content: 'x' }],
    [{ role: 'user' }],
    [{ role: 'user', content: 5 }],
    [{ role: 'user', content: null }],
    [{ role: 'user', content: {} }],
    [{ role: 'user', content: { type: 'text', text: 'x' } }],
    user(5),
    user(null),
    user('x'),
    user({}),
    user({ type: 5 }),
    user({ type: 'text' }),
    user({ type: 'text', text: 5 }),
    user({ type: 'text', text: null }),
    user({ type: 'no_such_block' }),
    user({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' } }),
    user({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }),
    user({ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }),
    user({ type: 'search_result', source: 'x', title: 't', content: [] }),
    user({ type: 'image' }),
    user({ type: 'image', source: 'x' }),
    user({ type: 'image', source: {} }),
    user({ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'Qk0=' } }),
    user({ type: 'image', source: { type: 'base64', media_type: 'image/png' } }),
    user({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 5 } }),
    user({ type: 'image', source: { type: 'url', url: 'ftp://example.com/a.png' } }),
    user({ type: 'image', source: { type: 'url', url: 'javascript:alert(1)' } }),
    user({ type: 'image', source: { type: 'url' } }),
    user({ type: 'image', source: { type: 'file', file_id: 'file_1' } }),
    user({ type: 'tool_result' }),
    user({ type: 'tool_result', content: 'x' }),
    user({ type: 'tool_result', tool_use_id: '', content: 'x' }),
    user({ type: 'tool_result', tool_use_id: 5, content: 'x' }),
    user({ type: 'tool_result', tool_use_id: 'toolu_1', content: 5 }),
    user({ type: 'tool_result', tool_use_id: 'toolu_1', content: {} }),
    user({ type: 'tool_result', tool_use_id: 'toolu_1', content: true }),
    user({ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
    assistant(5),
    assistant({}),
    assistant({ type: 'tool_use', name: 'f', input: {} }),
    assistant({ type: 'tool_use', id: '', name: 'f', input: {} }),
    assistant({ type: 'tool_use', id: 5, name: 'f', input: {} }),
    assistant({ type: 'tool_use', id: 'toolu_1', input: {} }),
    assistant({ type: 'tool_use', id: 'toolu_1', name: '', input: {} }),
    assistant({ type: 'tool_use', id: 'toolu_1', name: 'f', input: 'x' }),
    assistant({ type: 'tool_use', id: 'toolu_1', name: 'f', input: [] }),
    assistant({ type: 'tool_use', id: 'toolu_1', name: 'f', input: 5 }),
    assistant({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }),
    assistant({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }),
    assistant({ type: 'text' }),
    assistant({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }),
    [{ role: 'system', content: 5 }, ...user('hi')],
    [{ role: 'system', content: [{ type: 'image' }] }, ...user('hi')],
    [{ role: 'system', content: {} }, ...user('hi')],
  ],
  system: [5, true, {}, [5], [null], [{ type: 'image' }], [{ type: 'text' }], [{ type: 'text', text: 5 }], ['x']],
  tools: [
    'x',
    5,
    true,
    {},
    [5],
    [null],
    [[]],
    [{}],
    [{ name: '', input_schema: { type: 'object' } }],
    [{ name: 5, input_schema: { type: 'object' } }],
    [{ name: 'f' }],
    [{ name: 'f', input_schema: 5 }],
    [{ name: 'f', input_schema: 'x' }],
    [{ name: 'f', input_schema: [] }],
    [{ type: 'custom', name: 'f' }],
    [{ type: 5, name: 'f' }],
    [{ type: {}, name: 'f' }],
  ],
  tool_choice: [
    5,
    'auto',
    true,
    [],
    {},
    { type: 'sometimes' },
    { type: 5 },
    { type: 'tool' },
    { type: 'tool', name: '' },
    { type: 'tool', name: 5 },
  ],
  thinking: [
    'x',
    5,
    true,
    [],
    { type: 'sometimes' },
    { type: 5 },
    { type: 'enabled' },
    { type: 'enabled', budget_tokens: 0 },
    { type: 'enabled', budget_tokens: -1 },
    { type: 'enabled', budget_tokens: 1.5 },
    { type: 'enabled', budget_tokens: '1024' },
    { type: 'enabled', budget_tokens: null },
  ],
  output_config: ['x', 5, true, [], { effort: 'extreme' }, { effort: 5 }, { effort: '' }, { effort: {} }],
  temperature: [1.01, 1.5, 2, -0.1, '0.5', true, [], {}],
  top_p: [1.01, -1, '0.5', true, [], {}],
  top_k: [-1, 1.5, '5', true, [], {}],
  stop_sequences: ['END', 5, true, {}, [5], [null], [[]], [{}], ['a', 'b', 'c', 'd', 'e']],
  metadata: ['x', 5, true, [], { user_id: 5 }, { user_id: {} }, { user_id: [] }],
  stream: ['true', 1, [], {}, 'yes', 0],
};

/** Fields count_tokens does not read: the answer's own (`max_tokens`). */
const COUNT_TOKENS_SKIPS: ReadonlySet<string> = new Set(['max_tokens']);

const VIDEO_BASE = { model: 'demo-video', prompt: 'A paper boat', seconds: 4 };
const VIDEO_FIELDS: Record<string, readonly unknown[]> = {
  model: [5, true, [], {}, '', 'demo-chat'],
  prompt: [5, true, [], {}, '', ' '],
  seconds: ['x', -4, 0, 4.5, ' 4 ', true, [], {}, 8, '4e0'],
  resolution: [5, true, [], {}, '1080p', '720P '],
  ratio: [5, true, [], {}, '4:3', '16x9'],
  size: [5, true, [], {}, '1x1', '1280X720'],
  input_reference: [5, true, [], 'ftp://x', 'not a url', { image_url: 5 }],
};

const KEY_FIELDS: Record<string, readonly unknown[]> = {
  name: [5, true, [], {}, '', 'x'.repeat(300)],
  models: ['flash', 5, true, {}, [], [5], ['x'.repeat(300)]],
  budget_usd: ['25', true, null, -1, [], {}, 1e10],
  rpm: ['5', true, 0, -1, 1.5, [], {}],
  tpm: ['5', true, 0, -1, 1.5, [], {}],
  budget_period: [5, true, 'yearly', [], {}, 'Monthly'],
  expires_at: ['2026', true, -1, 1.5, [], {}],
  team_id: [5, true, [], {}, ''],
  metadata: ['x', 5, true, [], { a: 5 }, { 'bad key!': 'x' }],
};

const TEAM_FIELDS: Record<string, readonly unknown[]> = {
  name: [5, true, [], {}, '', 'x'.repeat(300)],
  models: ['flash', 5, true, {}, [5]],
  budget_usd: ['25', true, -1, [], {}],
  rpm: ['5', true, 0, -1, 1.5],
  tpm: ['5', true, 0, -1, 1.5],
  budget_period: [5, true, 'yearly', []],
  metadata: ['x', 5, true, []],
};

const QUERIES: Record<string, readonly string[]> = {
  '/v1/videos': [
    'limit=abc',
    'limit=-1',
    'limit=0',
    'limit=1.5',
    'limit=101',
    'order=sideways',
    'after=nope',
    'limit=1&limit=2',
    'after=%zz',
  ],
  '/admin/v1/keys': ['limit=abc', 'limit=-1', 'limit=0', 'limit=100000'],
  '/admin/v1/teams': ['limit=abc', 'limit=-1', 'limit=0', 'limit=100000'],
  '/v1/usage/logs': [
    'limit=abc',
    'limit=0',
    'limit=1001',
    'from=yesterday',
    'to=-5',
    'key_id=key_0000000000000000',
    'team_id=x',
    'after=garbage',
  ],
  '/admin/v1/spend/logs': ['limit=abc', 'limit=0', 'from=yesterday', 'to=-5', 'from=1e99', 'key_id=', 'after=garbage'],
  '/admin/v1/spend/daily': ['from=2026-13-01', 'to=abc', 'from=2026-11-30&to=2026-11-01', 'from=1', 'key_id='],
  '/admin/v1/spend/top': ['by=group', 'limit=0', 'limit=101', 'from=2026-13-01', 'from=2026-11-30&to=2026-11-01', 'to=1'],
  '/admin/v1/overview': ['x=1'],
  '/admin/v1/videos': ['status=done', 'limit=abc', 'limit=0', 'limit=1001', 'after=video_nope', 'key_id='],
  '/admin/v1/upstreams': ['x=1'],
  '/admin/v1/audit': ['limit=abc', 'limit=0', 'after=garbage', 'limit=-3'],
  '/v1/videos/video_0123456789abcdef/content': ['variant=thumbnail', 'variant=spritesheet', 'variant=', 'variant=../etc'],
};

const HOSTILE_IDS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%zz',
  "1'%20OR%20'1'='1",
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  'a'.repeat(101),
  'a'.repeat(5000),
  '%E2%80%AE',
  '%F0%9F%92%A9',
  '%C0%AF',
  '{"$gt":""}',
  '$where',
  'null',
  'undefined',
  '__proto__',
  'constructor',
];

const ID_ROUTES: readonly [string, (id: string) => string, 'key' | 'admin'][] = [
  ['GET', (id) => `/v1/models/${id}`, 'key'],
  ['GET', (id) => `/v1/videos/${id}`, 'key'],
  ['DELETE', (id) => `/v1/videos/${id}`, 'key'],
  ['GET', (id) => `/v1/videos/${id}/content`, 'key'],
  ['GET', (id) => `/admin/v1/keys/${id}`, 'admin'],
  ['PATCH', (id) => `/admin/v1/keys/${id}`, 'admin'],
  ['DELETE', (id) => `/admin/v1/keys/${id}`, 'admin'],
  ['POST', (id) => `/admin/v1/keys/${id}/rotate`, 'admin'],
  ['GET', (id) => `/admin/v1/teams/${id}`, 'admin'],
  ['DELETE', (id) => `/admin/v1/teams/${id}`, 'admin'],
];

const json = (value: unknown) => JSON.stringify(value);
const JSON_TYPE = { 'content-type': 'application/json' };

function deep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export function hostileCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);

  // Authentication: none, malformed, wrong, on every route.
  for (const [method, path] of KEY_ROUTES) {
    for (const auth of ['none', 'malformed', 'wrong-key'] as const)
      add({ name: `auth ${auth}`, method, path, auth, headers: JSON_TYPE, body: method === 'POST' ? json(CHAT_BASE) : undefined });
    add({
      name: 'two authorizations',
      method,
      path,
      auth: 'key',
      headers: { ...JSON_TYPE, 'x-second-auth': '1' },
      body: method === 'POST' ? json(CHAT_BASE) : undefined,
    });
    for (const header of [
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'bearer sk-short',
      `Bearer sk-${'x'.repeat(300)}`,
      'Bearer sk-valid-looking-but-unknown-0000',
      'Token sk-abc',
    ]) {
      add({ name: `authorization "${header.slice(0, 24)}"`, method, path, auth: 'none', headers: { authorization: header } });
    }
  }
  for (const [method, path] of ADMIN_ROUTES) {
    for (const auth of ['none', 'wrong-admin', 'malformed', 'wrong-key'] as const)
      add({
        name: `admin auth ${auth}`,
        method,
        path,
        auth,
        headers: JSON_TYPE,
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
    add({ name: 'admin two authorizations', method, path, auth: 'admin', headers: { 'x-second-auth': '1' } });
  }

  // Methods a route does not take (405, Allow naming those it does: HEAD wherever GET is), and
  // paths nobody serves (404).
  const allRoutes = [
    ...KEY_ROUTES.map(([m, p]) => [m, p, 'key'] as const),
    ...ADMIN_ROUTES.map(([m, p]) => [m, p, 'admin'] as const),
    ...PUBLIC_ROUTES.map(([m, p]) => [m, p, 'none'] as const),
  ];
  const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const allowOf = (path: string) => {
    const served = new Set(allRoutes.filter(([, p]) => p === path).map(([m]) => m));
    if (served.has('GET')) served.add('HEAD');
    return ALLOW_ORDER.filter((m) => served.has(m)).join(', ');
  };
  for (const [method, path, auth] of allRoutes) {
    for (const other of ['PUT', 'PATCH', 'DELETE', 'POST', 'GET']) {
      if (other === method || allRoutes.some(([m, p]) => m === other && p === path)) continue;
      add({
        name: `method ${other}`,
        method: other,
        path,
        auth,
        expected: { status: 405, code: 'method_not_allowed', allow: allowOf(path) },
      });
    }
  }
  for (const path of [
    '/',
    '/v1',
    '/v2/chat/completions',
    '/v1/chat',
    '/v1/completions',
    '/v1/embeddings',
    '/admin',
    '/admin/v1',
    '/v1/videos/x/y/z',
    '/.env',
    '/v1/models/demo-chat/extra',
    '/ui/nope',
    '/ui/assets/missing.js',
    '/ui/index.html/x',
  ]) {
    for (const auth of ['key', 'admin', 'none'] as const)
      add({ name: 'unknown path', method: 'GET', path, auth, expected: { status: 404, code: 'not_found' } });
  }

  // Bodies: content types, malformed and non-object JSON, prototype-named keys, size.
  for (const [method, path, auth] of BODY_ROUTES) {
    for (const type of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'image/png',
      'application/json; charset=utf-16',
    ]) {
      add({ name: `content-type ${type}`, method, path, auth, headers: { 'content-type': type }, body: 'model=demo-chat' });
    }
    add({ name: 'no body, no content-type', method, path, auth });
    add({ name: 'empty JSON body', method, path, auth, headers: JSON_TYPE, body: '' });
    for (const text of MALFORMED_JSON)
      add({ name: `malformed JSON ${JSON.stringify(text).slice(0, 20)}`, method, path, auth, headers: JSON_TYPE, body: text });
    for (const text of NOT_OBJECTS) add({ name: `non-object JSON ${text}`, method, path, auth, headers: JSON_TYPE, body: text });
    for (const key of PROTOTYPE_KEYS)
      add({ name: `prototype key ${key}`, method, path, auth, headers: JSON_TYPE, body: `{"${key}":{"x":1}}` });
    add({ name: 'deep nesting 10k', method, path, auth, headers: JSON_TYPE, body: `{"x":${deep(10_000)}}` });
    add({ name: 'deep nesting 100k', method, path, auth, headers: JSON_TYPE, body: `{"x":${deep(100_000)}}` });
    add({ name: 'gzip claimed, not gzip', method, path, auth, headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: '{}' });
  }

  // Every documented field with wrong types and out-of-range values.
  for (const [field, values] of Object.entries(CHAT_FIELDS)) {
    for (const value of values)
      add({
        name: `chat ${field}=${json(value)?.slice(0, 30)}`,
        method: 'POST',
        path: '/v1/chat/completions',
        auth: 'key',
        headers: JSON_TYPE,
        body: json({ ...CHAT_BASE, [field]: value }),
      });
  }
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'seed', 'max_tokens']) {
    add({
      name: `chat ${field}=1e309`,
      method: 'POST',
      path: '/v1/chat/completions',
      auth: 'key',
      headers: JSON_TYPE,
      body: `{"model":"demo-chat","messages":[{"role":"user","content":"hi"}],"${field}":1e309}`,
    });
  }
  for (const key of PROTOTYPE_KEYS.filter((k) => k !== '__proto__' && k !== 'constructor')) {
    // A prototype-named key beside a valid request: dropped, never a 5xx; and a wrong-typed one refused.
    add({
      name: `chat prototype-named field ${key} with a bad stream`,
      method: 'POST',
      path: '/v1/chat/completions',
      auth: 'key',
      headers: JSON_TYPE,
      body: json({ ...CHAT_BASE, [key]: 1, stream: 'x' }),
    });
  }
  const message = (content: unknown) => json({ ...CHAT_BASE, messages: [{ role: 'user', content }] });
  for (const content of [
    5,
    true,
    {},
    [5],
    [{ type: 'audio' }],
    [{ type: 'text' }],
    [{ type: 'text', text: 5 }],
    [{ type: 'image_url' }],
    [{ type: 'image_url', image_url: { url: 'ftp://x' } }],
    [{ type: 'image_url', image_url: 'x' }],
  ]) {
    add({
      name: `chat content ${json(content)}`,
      method: 'POST',
      path: '/v1/chat/completions',
      auth: 'key',
      headers: JSON_TYPE,
      body: message(content),
    });
  }
  add({
    name: 'chat 5,000 messages',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    headers: JSON_TYPE,
    body: json({ ...CHAT_BASE, messages: Array.from({ length: 5000 }, () => ({ role: 'user', content: 'x' })) }),
  });
  add({
    name: 'chat 200 tools',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    headers: JSON_TYPE,
    body: json({ ...CHAT_BASE, tools: Array.from({ length: 200 }, (_, i) => ({ type: 'function', function: { name: `f${i}` } })) }),
  });
  add({
    name: 'chat 2,000 logit_bias entries',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    headers: JSON_TYPE,
    body: json({ ...CHAT_BASE, logit_bias: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [String(i), 1])) }),
  });
  add({
    name: 'chat deep response_format',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    headers: JSON_TYPE,
    body: `{"model":"demo-chat","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${deep(10_000).replace(/^\[/, '{"a":[').replace(/\]$/, ']}')}}}}`,
  });
  add({
    name: 'chat deep tool parameters',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'key',
    headers: JSON_TYPE,
    body: `{"model":"demo-chat","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"a":${deep(10_000)}}}}]}`,
  });

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

  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'order=sideways']) {
    add({ name: `input_items ${query}`, method: 'GET', path: `/v1/responses/resp_0123456789abcdef/input_items?${query}`, auth: 'key' });
  }
  for (const id of ['x', 'resp_', 'resp_../../x', `resp_${'a'.repeat(100)}`, 'chatcmpl-0123456789abcdef'])
    add({ name: `response id ${id.slice(0, 20)}`, method: 'GET', path: `/v1/responses/${encodeURIComponent(id)}`, auth: 'key' });

  for (const [field, values] of Object.entries(VIDEO_FIELDS)) {
    for (const value of values)
      add({
        name: `video ${field}=${json(value)?.slice(0, 30)}`,
        method: 'POST',
        path: '/v1/videos',
        auth: 'key',
        headers: JSON_TYPE,
        body: json({ ...VIDEO_BASE, [field]: value }),
      });
  }
  for (const [name, headers, body] of [
    ['multipart without boundary', { 'content-type': 'multipart/form-data' }, 'x'],
    [
      'multipart cut short',
      { 'content-type': 'multipart/form-data; boundary=XX' },
      '--XX\r\nContent-Disposition: form-data; name="model"\r\n\r\ndemo-video\r\n',
    ],
    ['multipart 2 KB boundary', { 'content-type': `multipart/form-data; boundary=${'b'.repeat(2048)}` }, `--${'b'.repeat(2048)}--\r\n`],
    ['multipart garbage', { 'content-type': 'multipart/form-data; boundary=XX' }, 'garbage'],
    [
      'multipart file for a text field',
      { 'content-type': 'multipart/form-data; boundary=XX' },
      '--XX\r\nContent-Disposition: form-data; name="prompt"; filename="p.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XX--\r\n',
    ],
    ['multipart empty', { 'content-type': 'multipart/form-data; boundary=XX' }, '--XX--\r\n'],
  ] as const) {
    add({ name, method: 'POST', path: '/v1/videos', auth: 'key', headers, body });
  }

  const KEY_BASE = { name: 'k', models: ['*'], budget_usd: 1 };
  for (const [field, values] of Object.entries(KEY_FIELDS)) {
    for (const value of values) {
      add({
        name: `create key ${field}=${json(value)?.slice(0, 30)}`,
        method: 'POST',
        path: '/admin/v1/keys',
        auth: 'admin',
        headers: JSON_TYPE,
        body: json({ ...KEY_BASE, [field]: value }),
      });
      add({
        name: `patch key ${field}=${json(value)?.slice(0, 30)}`,
        method: 'PATCH',
        path: '/admin/v1/keys/key_0000000000000000',
        auth: 'admin',
        headers: JSON_TYPE,
        body: json({ [field]: value }),
      });
    }
  }
  add({
    name: 'create key with a 5 MB models entry',
    method: 'POST',
    path: '/admin/v1/keys',
    auth: 'admin',
    headers: JSON_TYPE,
    body: json({ ...KEY_BASE, models: ['x'.repeat(5 * 1024 * 1024)] }),
  });
  add({
    name: 'create key unknown field',
    method: 'POST',
    path: '/admin/v1/keys',
    auth: 'admin',
    headers: JSON_TYPE,
    body: json({ ...KEY_BASE, role: 'owner' }),
  });
  for (const grace of ['x', -1, 604801, 1.5, true, null])
    add({
      name: `rotate grace ${json(grace)}`,
      method: 'POST',
      path: '/admin/v1/keys/key_0000000000000000/rotate',
      auth: 'admin',
      headers: JSON_TYPE,
      body: json({ grace_seconds: grace }),
    });
  for (const [field, values] of Object.entries(TEAM_FIELDS)) {
    for (const value of values) {
      add({
        name: `create team ${field}=${json(value)?.slice(0, 30)}`,
        method: 'POST',
        path: '/admin/v1/teams',
        auth: 'admin',
        headers: JSON_TYPE,
        body: json({ name: 't', [field]: value }),
      });
      add({
        name: `patch team ${field}=${json(value)?.slice(0, 30)}`,
        method: 'PATCH',
        path: '/admin/v1/teams/team_0000000000000000',
        auth: 'admin',
        headers: JSON_TYPE,
        body: json({ [field]: value }),
      });
    }
  }
  for (const value of WRONG)
    add({
      name: `create key name=${json(value)}`,
      method: 'POST',
      path: '/admin/v1/keys',
      auth: 'admin',
      headers: JSON_TYPE,
      body: json({ name: value, models: ['*'] }),
    });

  // Queries and ids.
  for (const [path, queries] of Object.entries(QUERIES)) {
    const auth = path.startsWith('/admin') ? 'admin' : 'key';
    for (const query of queries) add({ name: `query ${query}`, method: 'GET', path: `${path}?${query}`, auth });
  }
  for (const [method, path, auth] of ID_ROUTES) {
    for (const id of HOSTILE_IDS)
      add({
        name: `id ${id.slice(0, 24)}`,
        method,
        path: path(id),
        auth,
        headers: method === 'PATCH' || method === 'POST' ? JSON_TYPE : {},
        body: method === 'PATCH' || method === 'POST' ? '{}' : undefined,
      });
  }

  // Range on the clip route: malformed, and past any end.
  for (const range of [
    'bytes=abc',
    'bytes=5-1',
    'items=0-1',
    'bytes=--1',
    'bytes=0-1,,2-3',
    `bytes=${'1'.repeat(400)}-`,
    'bytes=999999999999-',
  ]) {
    add({
      name: `range ${range.slice(0, 20)}`,
      method: 'GET',
      path: '/v1/videos/video_0123456789abcdef/content',
      auth: 'key',
      headers: { range },
    });
  }
  return cases;
}

/** Raw HTTP/1.1 the parser itself refuses: framing, request lines, header bytes, sizes. */
export const RAW_REQUESTS: readonly [string, string][] = [
  [
    'CL and TE together',
    'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  ['two Content-Lengths', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
  ['negative Content-Length', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'],
  ['bad chunk size', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ['TE obfuscated', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n'],
  ['garbage request line', 'GARBAGE\r\n\r\n'],
  ['unknown version', 'GET /v1/models HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['space in header name', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
  ['NUL in header value', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
  ['raw non-ASCII target', 'GET /v1/models/\u00ff\u00fe HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['bare LF line endings', 'GET /v1/models HTTP/1.1\nHost: x\n\n'],
  ['header folding', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n'],
  ['huge header', `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`],
  ['huge query', `GET /v1/models?${'q='.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['no Host', 'GET /v1/models HTTP/1.1\r\n\r\n'],
  ['absolute-form target', 'GET http://evil.example/v1/models HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['CONNECT', 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'],
  ['Expect other than 100-continue', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n'],
  ['Expect on a body', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}'],
  [
    'oversized body declared',
    'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{}',
  ],
  [
    'admin body over its limit declared',
    'POST /admin/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 70000\r\n\r\n{}',
  ],
];
