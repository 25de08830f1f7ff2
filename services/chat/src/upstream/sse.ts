/**
 * Splits a text/event-stream body into the payloads of its `data:` fields, as bytes arrive
 * (events may straddle reads). Yields, per read, the events it completed, so events that
 * arrived together can be handled together. Comments and other fields are skipped.
 */
export async function* sseBatches(body: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const events: string[] = [];
    let start = 0;
    for (let newline = buffer.indexOf('\n', start); newline !== -1; newline = buffer.indexOf('\n', start)) {
      let line = buffer.slice(start, newline);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      start = newline + 1;
      if (line === '') {
        if (data.length > 0) events.push(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
    buffer = buffer.slice(start);
    if (events.length > 0) yield events;
  }
  buffer += decoder.decode();
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer[5] === ' ' ? 6 : 5).replace(/\r$/, ''));
  if (data.length > 0) yield [data.join('\n')];
}

/** The same events one at a time. */
export async function* sseData(body: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<string> {
  for await (const events of sseBatches(body)) yield* events;
}
