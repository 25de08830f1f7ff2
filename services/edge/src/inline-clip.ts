// A clip a provider hands over inline, as a `data:` address (the demo provider does), served as a
// vendor's download server would: whole with 200, or one byte range with 206, or 416 with the
// length when the range lies past the end. Several ranges get the whole clip (RFC 9110 lets a
// server ignore Range), as most vendors' storage does.

export interface InlineClip {
  contentType: string;
  bytes: Buffer;
}

const DATA_ADDRESS = /^data:([\w.+-]+\/[\w.+-]+);base64,/;

/** The bytes of a base64 `data:` address; undefined for any other address. */
export function inlineClip(address: string): InlineClip | undefined {
  const match = DATA_ADDRESS.exec(address);
  if (!match) return undefined;
  return { contentType: match[1] ?? 'application/octet-stream', bytes: Buffer.from(address.slice(match[0].length), 'base64') };
}

export type ClipRange = { start: number; end: number } | 'whole' | 'unsatisfiable';

/** What a Range header (already checked to be well formed) asks of `length` bytes. */
export function clipRange(header: string | undefined, length: number): ClipRange {
  if (header === undefined) return 'whole';
  const spec = header.slice('bytes='.length);
  if (spec.includes(',')) return 'whole';
  const [first = '', last = ''] = spec.split('-');
  if (first === '' && last === '') return 'whole';
  if (first === '') {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || length === 0) return 'unsatisfiable';
    return { start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  const end = last === '' ? length - 1 : Math.min(Number(last), length - 1);
  if (start >= length || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Status, headers and body for one request of an inline clip. */
export function clipResponse(
  clip: InlineClip,
  rangeHeader: string | undefined,
): { status: number; headers: Record<string, string>; body: Buffer } {
  const length = clip.bytes.length;
  const range = clipRange(rangeHeader, length);
  const common = { 'content-type': clip.contentType, 'accept-ranges': 'bytes' };
  if (range === 'unsatisfiable') {
    return { status: 416, headers: { ...common, 'content-range': `bytes */${length}`, 'content-length': '0' }, body: Buffer.alloc(0) };
  }
  if (range === 'whole') return { status: 200, headers: { ...common, 'content-length': String(length) }, body: clip.bytes };
  const body = clip.bytes.subarray(range.start, range.end + 1);
  return {
    status: 206,
    headers: { ...common, 'content-range': `bytes ${range.start}-${range.end}/${length}`, 'content-length': String(body.length) },
    body,
  };
}
