import type { ServerResponse } from 'node:http';

// The video simulator's request checks and vendor-shaped answers.

export interface Problem {
  message: string;
  param: string;
}

export function checkContent(content: unknown): { text: string; image: boolean } | Problem {
  if (!Array.isArray(content) || content.length === 0) return { message: 'content must be a non-empty array.', param: 'content' };
  let text: string | undefined;
  let image = false;
  for (const [i, item] of content.entries()) {
    const param = `content[${i}]`;
    if (!isObject(item)) return { message: `${param} must be an object.`, param };
    if (item.type === 'text') {
      for (const key of Object.keys(item))
        if (key !== 'type' && key !== 'text') return { message: `${param}: unknown field ${key}.`, param };
      if (typeof item.text !== 'string' || item.text.trim().length === 0)
        return { message: `${param}.text must be a non-empty string.`, param };
      if (text !== undefined) return { message: 'content must carry exactly one text item.', param };
      text = item.text;
    } else if (item.type === 'image_url') {
      for (const key of Object.keys(item)) {
        if (key !== 'type' && key !== 'image_url' && key !== 'role') return { message: `${param}: unknown field ${key}.`, param };
      }
      const imageUrl = item.image_url;
      if (
        !isObject(imageUrl) ||
        Object.keys(imageUrl).some((key) => key !== 'url') ||
        typeof imageUrl.url !== 'string' ||
        !(isHttpUrl(imageUrl.url) || imageUrl.url.startsWith('data:image/'))
      ) {
        return { message: `${param}.image_url.url must be an http(s) URL or an image data URI.`, param };
      }
      if (item.role !== 'first_frame') return { message: `${param}.role must be first_frame.`, param };
      if (image) return { message: 'content may carry at most one first_frame image.', param };
      image = true;
    } else {
      return { message: `${param}.type ${String(item.type)} is not supported.`, param };
    }
  }
  if (text === undefined) return { message: 'content must carry exactly one text item.', param: 'content' };
  return { text, image };
}

/** RFC 9110 single byte ranges; undefined means serve the whole body (no header, multiple or malformed ranges). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(first);
  const stop = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (stop < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(stop, size - 1) + 1 };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function arkCodeFor(status: number): string {
  if (status === 400) return 'InvalidParameter';
  if (status === 401) return 'AuthenticationError';
  if (status === 403) return 'AccessDenied';
  if (status === 404) return 'ResourceNotFound';
  if (status === 429) return 'RateLimitExceeded';
  if (status === 503) return 'ServiceUnavailable';
  return 'InternalServiceError';
}

export function minimaxTypeFor(status: number): string {
  if (status === 400 || status === 413) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return 'api_error';
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The object store's answer for a refused clip URL. */
export function denied(res: ServerResponse, status: number, code: string, message: string): void {
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
