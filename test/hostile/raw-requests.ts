// Raw HTTP/1.1 requests for the hostile suite: what the HTTP parser itself must refuse.

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
