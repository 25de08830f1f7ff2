// Secrets never reach a log line: a field with one of these names is replaced by "[redacted]"
// wherever it sits in a logged object (its bindings and its error included), at any depth.
//
// Written here rather than as pino's `redact` paths: pino checks wildcard paths by stringifying
// every field of every line through a redactor, which cost the request path several percent of
// its CPU for the one access line per call. This walk looks at each key once, copies only the
// objects on the way to a secret, and leaves a line without one as it was.

/** Field names whose values are keys, admin tokens, provider credentials or provider signed URLs. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'authorization',
  'x-api-key',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'token',
  'password',
  'credential',
  'adminToken',
  'url',
  'signedUrl',
  'video_url',
]);

export const REDACTED = '[redacted]';

/** Deeper than any line the gateway writes; below it an object is written as "[redacted]" whole. */
const MAX_DEPTH = 8;

function walk(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const redacted = walk(item, depth + 1);
      if (redacted !== item) {
        copy ??= value.slice();
        copy[i] = redacted;
      }
    }
    return copy ?? value;
  }
  // What JSON writes through its own toJSON (dates, buffers, URLs) is written as it is; any other
  // object, a class instance or an Error included, is written field by field, so it is walked.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const field in record) {
    if (!Object.hasOwn(record, field)) continue;
    const item = record[field];
    // A line's `err` is redacted by the logger's error serializer, once it is a plain object.
    if (depth === 0 && field === 'err' && item instanceof Error) continue;
    const redacted = SECRET_FIELDS.has(field) ? (item === undefined || item === null ? item : REDACTED) : walk(item, depth + 1);
    if (redacted !== item) {
      copy ??= value instanceof Error ? errorFields(value) : { ...record };
      copy[field] = redacted;
    }
  }
  return copy ?? value;
}

/** An error as a plain object that still says what it was (pino's serializer would otherwise see fields only). */
function errorFields(error: Error): Record<string, unknown> {
  return { ...error, type: error.name, message: error.message, stack: error.stack };
}

/** `value` with every secret field replaced; the same object when it holds none. */
export function redactSecrets<T>(value: T): T {
  return walk(value, 0) as T;
}
