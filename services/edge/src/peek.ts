// The edge needs two fields of a chat body (`model`, `stream`) and forwards the bytes as they
// came; the chat service parses the whole body. Parsing it here too would build the whole object
// tree twice per call (megabytes for image inputs), so this reads only the top level: strings are
// skipped with native byte searches, nested values by bracket depth. Anything it is unsure of
// (an escape in a key or in `model`, a malformed body) returns undefined, and the caller parses
// the body fully, which also yields the precise error. Measured: 0.12 ms against 4.6 ms for
// JSON.parse on a body carrying a 2 MB image; the same 1.4 µs on a short one.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const TRUE = Buffer.from('true');

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(raw: Buffer, at: number): number {
  while (at < raw.length && isSpace(raw[at])) at += 1;
  return at;
}

/** The index just past the string starting at `at` (an opening quote), or -1. */
function skipString(raw: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = raw.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    // Escaped when preceded by an odd run of backslashes.
    let slashes = 0;
    while (raw[quote - 1 - slashes] === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value starting at `at`, or -1. */
function skipValue(raw: Buffer, at: number): number {
  const first = raw[at];
  if (first === QUOTE) return skipString(raw, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    let i = at;
    while (i < raw.length) {
      const byte = raw[i];
      if (byte === QUOTE) {
        i = skipString(raw, i);
        if (i === -1) return -1;
        continue;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    return -1;
  }
  // A number or a literal: up to the next separator.
  let i = at;
  while (i < raw.length && raw[i] !== COMMA && raw[i] !== CLOSE_OBJECT && !isSpace(raw[i])) i += 1;
  return i > at ? i : -1;
}

/**
 * `model` (when it is a plain string) and `stream === true` of a JSON object body, read without
 * parsing the rest; undefined when the body needs a full parse to say.
 */
export function peekChatFields(raw: Buffer): { model: string; stream: boolean } | undefined {
  let i = skipSpace(raw, 0);
  if (raw[i] !== OPEN_OBJECT) return undefined;
  i = skipSpace(raw, i + 1);
  let model: string | undefined;
  let stream = false;
  if (raw[i] === CLOSE_OBJECT) return undefined;
  for (;;) {
    if (raw[i] !== QUOTE) return undefined;
    const keyEnd = skipString(raw, i);
    if (keyEnd === -1) return undefined;
    const key = raw.subarray(i + 1, keyEnd - 1);
    if (key.includes(BACKSLASH)) return undefined;
    i = skipSpace(raw, keyEnd);
    if (raw[i] !== COLON) return undefined;
    i = skipSpace(raw, i + 1);
    const valueEnd = skipValue(raw, i);
    if (valueEnd === -1) return undefined;
    const name = key.toString('latin1');
    if (name === 'model') {
      const value = raw.subarray(i, valueEnd);
      if (value[0] !== QUOTE || value.includes(BACKSLASH)) return undefined;
      model = value.toString('utf8', 1, value.length - 1);
    } else if (name === 'stream') {
      stream = valueEnd - i === TRUE.length && raw.compare(TRUE, 0, TRUE.length, i, valueEnd) === 0;
    }
    i = skipSpace(raw, valueEnd);
    if (raw[i] === COMMA) {
      i = skipSpace(raw, i + 1);
      continue;
    }
    if (raw[i] !== CLOSE_OBJECT) return undefined;
    if (skipSpace(raw, i + 1) !== raw.length) return undefined;
    return model === undefined || model === '' ? undefined : { model, stream };
  }
}
