import { type Add, deep, type HostileCase, JSON_TYPE, json } from './case-kit.js';
import { messagesCases, responsesCases } from './dialect-cases.js';
import { CHAT_BASE, CHAT_FIELDS, KEY_FIELDS, TEAM_FIELDS, VIDEO_BASE, VIDEO_FIELDS, WRONG } from './fields.js';
import { ADMIN_ROUTES, BODY_ROUTES, KEY_ROUTES, PUBLIC_ROUTES } from './routes.js';

export type { HostileCase } from './case-kit.js';
export { ADMIN_ROUTES, KEY_ROUTES, PUBLIC_ROUTES, speaksAnthropic } from './routes.js';
export { MESSAGES_FIELDS } from './fields.js';
export { RAW_REQUESTS } from './raw-requests.js';

// The hostile-input table: requests a caller at fault might send, over every route and method
// (admin routes included). Each case expects a 4xx in the OpenAI error shape (Anthropic's on the
// Messages routes, and on the model list asked with `anthropic-version`); the suite also checks
// no secret is echoed and the process stays up. Generated from a few lists, so a new
// route or field is one line here.

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

/** Authentication: none, malformed, wrong, on every route. */
function authCases(add: Add): void {
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
}

/** Methods a route does not take, and paths nobody serves. */
function methodCases(add: Add): void {
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
}

/** Bodies: content types, malformed and non-object JSON, prototype-named keys, size. */
function bodyCases(add: Add): void {
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
}

/** Every documented chat field with wrong types and out-of-range values. */
function chatFieldCases(add: Add): void {
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
}

/** Video bodies and multipart. */
function videoCases(add: Add): void {
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
}

/** Admin bodies: keys and teams. */
function adminFieldCases(add: Add): void {
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
}

/** Queries, ids and ranges. */
function queryCases(add: Add): void {
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
}

export function hostileCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const add: Add = (c) => {
    cases.push(c);
  };
  for (const section of [
    authCases,
    methodCases,
    bodyCases,
    chatFieldCases,
    responsesCases,
    messagesCases,
    videoCases,
    adminFieldCases,
    queryCases,
  ])
    section(add);
  return cases;
}
