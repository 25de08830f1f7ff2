import { isObject, type JsonObject } from '../domain/request.js';
import type { ChatUsage } from '../domain/usage.js';
import { finishedMessage, messageBase, newToolUseId, stopOf, textBlock, thinkingBlock, toolUseBlock } from './output.js';
import type { MessageShell } from './shell.js';
import { messageUsage } from './usage.js';

// A streamed chat completion as Anthropic's server-sent events. Each kind of upstream delta
// opens a content block (thinking, text, one tool_use per tool call index) and feeds it; only
// one block is open at a time, closed when a later one starts or the stream ends, so blocks
// start, fill and stop in `content` order: the grammar the SDK's accumulator and Claude Code read.

interface Call {
  id: string;
  name: string;
  arguments: string;
  /** Its block was started (and its arguments so far sent). */
  started: boolean;
  /** Its block stopped: a later delta for it (an upstream interleaving calls) has no block to join. */
  stopped: boolean;
}

interface Block {
  kind: 'thinking' | 'text' | 'tool_use';
  /** Its position in `content`: the events' `index`. */
  index: number;
  /** A thinking or text block's text so far. */
  text: string;
  call?: Call;
}

/** One whole SSE frame, serialized now so later changes to shared objects do not reach it. */
function frame(type: string, data: JsonObject): Buffer {
  return Buffer.from(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

const NO_USAGE: ChatUsage = { prompt_tokens: 0, cached_tokens: 0, completion_tokens: 0, reasoning_tokens: 0 };

export class MessageEvents {
  /** Every block so far, each in its latest state: the message's `content`. */
  readonly #content: JsonObject[] = [];
  #open: Block | undefined;
  /** Tool calls by the upstream's tool call index. */
  readonly #calls = new Map<number, Call>();
  /** The choice fields that decide the stop: finish_reason and a matched stop sequence. */
  #stop: JsonObject = {};
  #final: JsonObject | undefined;

  constructor(private readonly shell: MessageShell) {}

  /** The final message (after finish), for logs; before it, the message so far. */
  get message(): JsonObject {
    if (this.#final) return this.#final;
    return { ...messageBase(this.shell, messageUsage(NO_USAGE)), content: structuredClone(this.#content) };
  }

  /**
   * message_start: the message with no content and no stop. Its usage holds `inputTokens` (0, or
   * an estimate of the uncached prompt) and output 0; message_delta carries the billed counts,
   * which the SDK and Claude Code take over these (Claude Code keeps a start's input count when
   * the delta's is 0, so an estimate here should not count a prompt that may come from cache).
   */
  start(inputTokens = 0): Buffer[] {
    const usage = { input_tokens: inputTokens, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    return [frame('message_start', { message: messageBase(this.shell, usage) })];
  }

  /** The events one chat chunk makes (possibly none). */
  chunk(chunk: JsonObject): Buffer[] {
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => isObject(c) && (c.index ?? 0) === 0) : undefined;
    if (!isObject(choice) || this.#final) return [];
    const out: Buffer[] = [];
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') {
      out.push(...this.#textDelta('thinking', delta.reasoning_content));
    }
    if (typeof delta.content === 'string' && delta.content !== '') out.push(...this.#textDelta('text', delta.content));
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isObject(call)) out.push(...this.#callDelta(call));
    if (typeof choice.finish_reason === 'string') {
      this.#stop = { finish_reason: choice.finish_reason, stop_reason: choice.stop_reason, matched_stop: choice.matched_stop };
    }
    return out;
  }

  /** Closes the open block, then message_delta (the stop, the billed usage) and message_stop. */
  finish(usage: ChatUsage): Buffer[] {
    if (this.#final) return [];
    const out = [...this.#startWaiting(), ...this.#close()];
    const stop = stopOf(
      this.shell,
      this.#stop,
      this.#content.some((block) => block.type === 'tool_use'),
    );
    // Kept apart from the blocks' latest states, which the events above already carried.
    this.#final = structuredClone(finishedMessage(this.shell, this.#content, stop, usage));
    out.push(frame('message_delta', { delta: stop, usage: messageUsage(usage) }), frame('message_stop', {}));
    return out;
  }

  #textDelta(kind: 'thinking' | 'text', text: string): Buffer[] {
    const out: Buffer[] = [];
    if (this.#open?.kind !== kind) {
      out.push(...this.#startWaiting(), ...this.#close());
      const start = kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
      out.push(this.#startBlock({ kind, index: this.#content.length, text: '' }, start));
    }
    const block = this.#open as Block;
    block.text += text;
    const delta = kind === 'thinking' ? { type: 'thinking_delta', thinking: text } : { type: 'text_delta', text };
    out.push(frame('content_block_delta', { index: block.index, delta }));
    return out;
  }

  #callDelta(delta: JsonObject): Buffer[] {
    const key = typeof delta.index === 'number' ? delta.index : 0;
    const fn = isObject(delta.function) ? delta.function : {};
    const out: Buffer[] = [];
    let call = this.#calls.get(key);
    if (!call) {
      // A call still waiting for its name starts now: the calls' blocks keep the upstream's order.
      out.push(...this.#startWaiting());
      const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : newToolUseId();
      call = { id, name: '', arguments: '', started: false, stopped: false };
      this.#calls.set(key, call);
    }
    if (call.stopped) return out;
    if (call.name === '' && typeof fn.name === 'string') call.name = fn.name;
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    if (!call.started) {
      call.arguments += args;
      // content_block_start names the tool: a call whose first delta has no name waits for it.
      if (call.name !== '') out.push(...this.#startCall(call));
    } else if (args !== '') {
      call.arguments += args;
      out.push(frame('content_block_delta', { index: this.#open?.index, delta: { type: 'input_json_delta', partial_json: args } }));
    }
    return out;
  }

  /** Starts a call's block, its arguments so far in one input_json_delta. */
  #startCall(call: Call): Buffer[] {
    const out = this.#close();
    call.started = true;
    const start = { type: 'tool_use', id: call.id, name: call.name, input: {} };
    const block: Block = { kind: 'tool_use', index: this.#content.length, text: '', call };
    out.push(this.#startBlock(block, start));
    if (call.arguments !== '') {
      out.push(frame('content_block_delta', { index: block.index, delta: { type: 'input_json_delta', partial_json: call.arguments } }));
    }
    return out;
  }

  /** Calls that never got a name, started nameless before anything else opens. */
  #startWaiting(): Buffer[] {
    const out: Buffer[] = [];
    for (const call of this.#calls.values()) if (!call.started) out.push(...this.#startCall(call));
    return out;
  }

  #startBlock(block: Block, start: JsonObject): Buffer {
    this.#open = block;
    this.#content.push(start);
    return frame('content_block_start', { index: block.index, content_block: start });
  }

  /** Stops the open block: a thinking block gets its signature, over its whole text, first. */
  #close(): Buffer[] {
    const block = this.#open;
    if (!block) return [];
    this.#open = undefined;
    const out: Buffer[] = [];
    if (block.kind === 'thinking') {
      const done = thinkingBlock(this.shell, block.text);
      this.#content[block.index] = done;
      out.push(frame('content_block_delta', { index: block.index, delta: { type: 'signature_delta', signature: done.signature } }));
    } else if (block.kind === 'text') this.#content[block.index] = textBlock(block.text);
    else if (block.call) {
      block.call.stopped = true;
      this.#content[block.index] = toolUseBlock(block.call.id, block.call.name, block.call.arguments);
    }
    out.push(frame('content_block_stop', { index: block.index }));
    return out;
  }
}
