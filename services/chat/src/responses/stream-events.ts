import { isObject, type JsonObject } from '../domain/request.js';
import type { ChatUsage } from '../domain/usage.js';
import { newItemId } from './ids.js';
import { finishedResponse, type FunctionCall, functionCallItem, messageItem, outputText, reasoningItem } from './output.js';
import { responseBase, type ResponseShell } from './shell.js';

// A streamed chat completion as Responses server-sent events. Each kind of upstream delta opens
// an output item (reasoning, message, one function call per tool call index) and feeds it; an
// item closes when a later kind begins or the stream ends, so every item is added, filled and
// done in `output` order, the grammar OpenAI streams and the SDKs' accumulators check.

interface TextItem {
  kind: 'reasoning' | 'message';
  /** Its position in `output`. */
  index: number;
  id: string;
  text: string;
}

interface CallItem extends FunctionCall {
  index: number;
  open: boolean;
}

export class ResponseEvents {
  #sequence = 0;
  /** Every item so far, each in its latest state: the response's `output`. */
  readonly #output: JsonObject[] = [];
  /** The reasoning or message item being written, if any. */
  #text: TextItem | undefined;
  /** Function calls by the upstream's tool call index; open until the stream ends or another kind begins. */
  readonly #calls = new Map<number, CallItem>();
  #finishReason: unknown = null;
  #final: JsonObject | undefined;
  #finalJson: string | undefined;

  constructor(private readonly shell: ResponseShell) {}

  /** Events written so far (the next sequence_number). */
  get sequence(): number {
    return this.#sequence;
  }

  /** The final response object (after finish), for storage; before it, the response so far. */
  get response(): JsonObject {
    if (this.#final) return this.#final;
    const response = responseBase(this.shell, 'in_progress');
    response.output = structuredClone(this.#output);
    return response;
  }

  /** response.created and response.in_progress: the same response, serialized once. */
  start(): Buffer[] {
    const base = JSON.stringify(responseBase(this.shell, 'in_progress'));
    return [this.#withResponse('response.created', base), this.#withResponse('response.in_progress', base)];
  }

  /** The events one chat chunk makes (possibly none). */
  chunk(chunk: JsonObject): Buffer[] {
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => isObject(c) && (c.index ?? 0) === 0) : undefined;
    if (!isObject(choice)) return [];
    const out: Buffer[] = [];
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') {
      out.push(...this.#textDelta('reasoning', delta.reasoning_content));
    }
    if (typeof delta.content === 'string' && delta.content !== '') out.push(...this.#textDelta('message', delta.content));
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isObject(call)) out.push(...this.#callDelta(call));
    if (typeof choice.finish_reason === 'string') this.#finishReason = choice.finish_reason;
    return out;
  }

  /** Closes whatever is open and ends with response.completed (or response.incomplete) carrying the final response. */
  finish(usage: ChatUsage): Buffer[] {
    if (this.#final) return [];
    const response = finishedResponse(this.shell, this.#finishReason, this.#output, usage);
    const incomplete = response.status === 'incomplete';
    const out = [...this.#closeText(incomplete), ...this.#closeCalls(incomplete)];
    // Items are replaced, never changed, once done: a copy of the list is a copy no later call changes.
    response.output = [...this.#output];
    this.#final = response;
    this.#finalJson = JSON.stringify(response);
    out.push(this.#withResponse(incomplete ? 'response.incomplete' : 'response.completed', this.#finalJson));
    return out;
  }

  /** The final response as JSON text (after finish), serialized once for the event and for storage. */
  get responseJson(): string {
    return this.#finalJson ?? JSON.stringify(this.response);
  }

  #textDelta(kind: TextItem['kind'], delta: string): Buffer[] {
    const out: Buffer[] = [];
    if (this.#text?.kind !== kind) out.push(...this.#closeText(false), ...this.#closeCalls(false), ...this.#openText(kind));
    const item = this.#text as TextItem;
    item.text += delta;
    const at = { item_id: item.id, output_index: item.index };
    if (kind === 'reasoning') out.push(this.#event('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta }));
    else {
      // The most frequent event, written as text: a third of an object's stringify.
      const data = `{"type":"response.output_text.delta","sequence_number":${this.#sequence++},"item_id":"${item.id}","output_index":${item.index},"content_index":0,"delta":${JSON.stringify(delta)},"logprobs":[]}`;
      out.push(Buffer.from(`event: response.output_text.delta\ndata: ${data}\n\n`));
    }
    return out;
  }

  #openText(kind: TextItem['kind']): Buffer[] {
    const item: TextItem = { kind, index: this.#output.length, id: newItemId(kind === 'reasoning' ? 'rs' : 'msg'), text: '' };
    this.#text = item;
    const added = kind === 'reasoning' ? reasoningItem(this.shell, item.id, undefined) : messageItem(item.id, 'in_progress', undefined);
    this.#output.push(added);
    const at = { item_id: item.id, output_index: item.index };
    return [
      this.#event('response.output_item.added', { output_index: item.index, item: added }),
      kind === 'reasoning'
        ? this.#event('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } })
        : this.#event('response.content_part.added', { ...at, content_index: 0, part: outputText('') }),
    ];
  }

  /** `cut`: the response ends incomplete, and an item still open at its end is the one cut off. */
  #closeText(cut: boolean): Buffer[] {
    const item = this.#text;
    if (!item) return [];
    this.#text = undefined;
    const at = { item_id: item.id, output_index: item.index };
    const { text } = item;
    if (item.kind === 'reasoning') {
      const done = reasoningItem(this.shell, item.id, text);
      this.#output[item.index] = done;
      return [
        this.#event('response.reasoning_summary_text.done', { ...at, summary_index: 0, text }),
        this.#event('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text } }),
        this.#event('response.output_item.done', { output_index: item.index, item: done }),
      ];
    }
    const done = messageItem(item.id, cut && this.#isLast(item.index) ? 'incomplete' : 'completed', text);
    this.#output[item.index] = done;
    return [
      this.#event('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }),
      this.#event('response.content_part.done', { ...at, content_index: 0, part: outputText(text) }),
      this.#event('response.output_item.done', { output_index: item.index, item: done }),
    ];
  }

  #callDelta(delta: JsonObject): Buffer[] {
    const key = typeof delta.index === 'number' ? delta.index : 0;
    const fn = isObject(delta.function) ? delta.function : {};
    const out: Buffer[] = [];
    let call = this.#calls.get(key);
    if (!call) {
      out.push(...this.#closeText(false));
      call = {
        index: this.#output.length,
        id: newItemId('fc'),
        callId: typeof delta.id === 'string' && delta.id !== '' ? delta.id : newItemId('call'),
        name: '',
        arguments: '',
        open: true,
      };
      this.#calls.set(key, call);
      // The name comes whole with a call's first delta: the added item carries it.
      if (typeof fn.name === 'string') call.name = fn.name;
      this.#output.push(functionCallItem(this.shell, call, 'in_progress'));
      out.push(this.#event('response.output_item.added', { output_index: call.index, item: this.#output[call.index] }));
    } else if (call.name === '' && typeof fn.name === 'string') call.name = fn.name;
    // A delta for a call already closed (an upstream interleaving kinds) has no event left to join.
    if (!call.open || typeof fn.arguments !== 'string' || fn.arguments === '') return out;
    call.arguments += fn.arguments;
    out.push(this.#event('response.function_call_arguments.delta', { item_id: call.id, output_index: call.index, delta: fn.arguments }));
    return out;
  }

  #closeCalls(cut: boolean): Buffer[] {
    const out: Buffer[] = [];
    for (const call of this.#calls.values()) {
      if (!call.open) continue;
      call.open = false;
      const done = functionCallItem(this.shell, call, cut && this.#isLast(call.index) ? 'incomplete' : 'completed');
      this.#output[call.index] = done;
      const at = { item_id: call.id, output_index: call.index };
      out.push(
        this.#event('response.function_call_arguments.done', { ...at, name: call.name, arguments: call.arguments }),
        this.#event('response.output_item.done', { output_index: call.index, item: done }),
      );
    }
    return out;
  }

  #isLast(index: number): boolean {
    return index === this.#output.length - 1;
  }

  /** An event whose only field is the response, already serialized. */
  #withResponse(type: string, json: string): Buffer {
    return Buffer.from(`event: ${type}\ndata: {"type":"${type}","sequence_number":${this.#sequence++},"response":${json}}\n\n`);
  }

  /** One whole SSE frame; fields are serialized now, so later changes to shared objects do not reach it. */
  #event(type: string, fields: JsonObject): Buffer {
    const data = JSON.stringify({ type, sequence_number: this.#sequence++, ...fields });
    return Buffer.from(`event: ${type}\ndata: ${data}\n\n`);
  }
}
