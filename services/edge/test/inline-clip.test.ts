import { describe, expect, it } from 'vitest';
import { clipRange, clipResponse, inlineClip } from '../src/inline-clip.js';

describe('an inline clip (data: address)', () => {
  const bytes = Buffer.from('0123456789');
  const clip = inlineClip(`data:video/mp4;base64,${bytes.toString('base64')}`);

  it('is read only from a base64 data: address', () => {
    expect(clip).toEqual({ contentType: 'video/mp4', bytes });
    expect(inlineClip('https://cdn.example.com/clip.mp4?sig=1')).toBeUndefined();
    expect(inlineClip('data:video/mp4,plain')).toBeUndefined();
  });

  it('answers Range as a download server does', () => {
    expect(clipRange(undefined, 10)).toBe('whole');
    expect(clipRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(clipRange('bytes=7-', 10)).toEqual({ start: 7, end: 9 });
    expect(clipRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(clipRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(clipRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(clipRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(clipRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(clipRange('bytes=4-2', 10)).toBe('unsatisfiable');
    // Several ranges: the whole clip, which RFC 9110 allows.
    expect(clipRange('bytes=0-1, 4-5', 10)).toBe('whole');
  });

  it('gives status, headers and exactly the bytes asked for', () => {
    if (!clip) throw new Error('no clip');
    expect(clipResponse(clip, undefined)).toEqual({
      status: 200,
      headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'content-length': '10' },
      body: bytes,
    });
    const part = clipResponse(clip, 'bytes=2-4');
    expect(part.status).toBe(206);
    expect(part.headers).toMatchObject({ 'content-range': 'bytes 2-4/10', 'content-length': '3' });
    expect(part.body.toString()).toBe('234');
    expect(clipResponse(clip, 'bytes=20-')).toMatchObject({ status: 416, headers: { 'content-range': 'bytes */10' } });
  });
});
