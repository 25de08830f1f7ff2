// Deterministic clip bytes for the video simulator: an mp4-looking body generated on the fly from
// a task's id, so a clip of any size streams without being held in memory.

/** A prime period, so the pattern never lines up with the 64 KiB chunks. */
const PERIOD = 65_521;
export const CHUNK = 64 * 1024;
const BASE_PATTERN: Buffer = (() => {
  const buf = Buffer.allocUnsafe(PERIOD);
  let x = 0x9e3779b9;
  for (let i = 0; i < PERIOD; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
})();
/** An ISO BMFF `ftyp` box, so the body starts like a real mp4. */
const FTYP = Buffer.concat([
  Buffer.from([0, 0, 0, 32]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41', 'latin1'),
]);
/** A 1×1 PNG served as the last frame. */
export const LAST_FRAME_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export function taskOffset(taskId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < taskId.length; i++) {
    hash ^= taskId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PERIOD;
}

/** Bytes [pos, pos + length) of the clip whose pattern offset is `offset`. */
export function clipChunk(offset: number, pos: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let written = 0;
  while (written < length) {
    const index = (pos + written + offset) % PERIOD;
    const take = Math.min(PERIOD - index, length - written);
    BASE_PATTERN.copy(buf, written, index, index + take);
    written += take;
  }
  for (let i = pos; i < FTYP.length && i < pos + length; i++) buf[i - pos] = FTYP[i] ?? 0;
  return buf;
}

// ---- simulator ---------------------------------------------------------------------------------
