// Just enough of ISO BMFF (MP4) to say what a clip is without a player: the brand (ftyp), the
// duration (mvhd), the first video track's size (tkhd) and its codec (stsd), so a test can tell
// a real, playable clip from bytes that merely came back.

export interface Mp4Facts {
  brand: string;
  width: number;
  height: number;
  seconds: number;
  codec: string;
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

function* boxes(buffer: Buffer, start: number, end: number): Generator<{ type: string; body: Buffer }> {
  let at = start;
  while (at + 8 <= end) {
    let size = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) throw new Error(`malformed box ${type} at ${at}`);
    yield { type, body: buffer.subarray(at + header, at + size) };
    at += size;
  }
}

export function mp4Facts(clip: Buffer): Mp4Facts {
  const facts: Partial<Mp4Facts> = {};
  const walk = (buffer: Buffer): void => {
    for (const { type, body } of boxes(buffer, 0, buffer.length)) {
      if (type === 'ftyp') facts.brand = body.toString('latin1', 0, 4);
      else if (type === 'mvhd') {
        const v1 = body[0] === 1;
        const timescale = body.readUInt32BE(v1 ? 20 : 12);
        const duration = v1 ? Number(body.readBigUInt64BE(24)) : body.readUInt32BE(16);
        facts.seconds = duration / timescale;
      } else if (type === 'tkhd' && facts.width === undefined) {
        // Width and height are 16.16 fixed point, the last 8 bytes of the box.
        const width = body.readUInt32BE(body.length - 8) >>> 16;
        const height = body.readUInt32BE(body.length - 4) >>> 16;
        if (width > 0 && height > 0) {
          facts.width = width;
          facts.height = height;
        }
      } else if (type === 'stsd' && facts.codec === undefined) facts.codec = body.toString('latin1', 12, 16);
      else if (CONTAINERS.has(type)) walk(body);
    }
  };
  walk(clip);
  if (!facts.brand || facts.width === undefined || facts.height === undefined || facts.seconds === undefined || !facts.codec)
    throw new Error(`not a complete MP4: ${JSON.stringify(facts)}`);
  return facts as Mp4Facts;
}
