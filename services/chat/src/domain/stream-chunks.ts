import { UpstreamFailure } from '@gateway/upstream';
import type { ChatProvider } from '../providers/index.js';
import { CompletionTally } from './estimate.js';
import { isObject, type ChatRequest, type JsonObject } from './request.js';
import { normalizeUsage, readUsage, usageBlock, type ChatUsage } from './usage.js';

// One streamed call's chunks on their way from the upstream to the caller: each translated by
// its provider, given the call's id and the caller's `model`, its usage read (and shown only if
// the caller asked), and its text tallied in case the call must be billed on an estimate.

/** Another API's event grammar for a streamed call (the Responses API): frames from chat chunks. */
export interface ChunkDialect {
  /** The frames one chunk makes (its id, model and usage already set); usage chunks come too. */
  chunk(chunk: JsonObject): Buffer[];
  /** The frames that end the answer, once billed: `usage` as billed, `estimated` when the gateway counted it. */
  end(usage: ChatUsage, estimated: boolean): Promise<Buffer[]>;
}

export class StreamChunks {
  /** The upstream's usage, once its usage chunk has passed. */
  usage: ChatUsage | undefined;
  readonly tally = new CompletionTally();

  constructor(
    private readonly provider: ChatProvider,
    private readonly request: ChatRequest,
    private readonly completionId: string,
    private readonly model: string,
    private readonly dialect?: ChunkDialect,
  ) {}

  /** The caller's chunks for one batch of upstream events, as JSON bytes. */
  translate(batch: readonly string[]): Buffer[] {
    const out: Buffer[] = [];
    for (const data of batch) {
      const chunk = parseChunk(data);
      if (chunk.error !== undefined) throw new UpstreamFailure('protocol');
      // The provider first: it moves a vendor's own usage fields into OpenAI's shape.
      this.provider.chunk?.(chunk);
      const chunkUsage = isObject(chunk.usage) ? chunk.usage : undefined;
      if (chunkUsage) this.usage = readUsage(chunkUsage);
      this.tally.addChunk(chunk);
      if (this.dialect) {
        if (chunkUsage) normalizeUsage(chunkUsage);
        out.push(...this.dialect.chunk(chunk));
        continue;
      }
      const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunkUsage !== undefined;
      if (usageOnly && !this.request.includeUsage) continue;
      chunk.id = this.completionId;
      chunk.model = this.model;
      // Undefined, which JSON.stringify leaves out, rather than deleted: a delete turns the
      // object into a dictionary in V8, a third slower to stringify, once per chunk.
      if (chunk.system_fingerprint !== undefined) chunk.system_fingerprint = undefined;
      if (!this.request.includeUsage) {
        if (chunk.usage !== undefined) chunk.usage = undefined;
      } else if (chunkUsage) normalizeUsage(chunkUsage);
      out.push(Buffer.from(JSON.stringify(chunk)));
    }
    return out;
  }

  /** The frames that end the answer: a dialect's own, or the usage chunk a chat caller asked for when the gateway counted it. */
  async end(usage: ChatUsage, estimated: boolean): Promise<Buffer[]> {
    if (this.dialect) return this.dialect.end(usage, estimated);
    return estimated && this.request.includeUsage ? [this.#estimatedUsageChunk(usage)] : [];
  }

  /** The usage chunk the caller asked for, when the upstream sent none and the gateway counted instead. */
  #estimatedUsageChunk(usage: ChatUsage): Buffer {
    const chunk = { id: this.completionId, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: this.model };
    return Buffer.from(JSON.stringify({ ...chunk, choices: [], usage: usageBlock(usage) }));
  }
}

function parseChunk(data: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new UpstreamFailure('protocol');
  }
  if (!isObject(parsed)) throw new UpstreamFailure('protocol');
  return parsed;
}
