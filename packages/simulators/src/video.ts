import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, pipeline } from 'node:stream';
import {
  ARK_FIELDS,
  ARK_PIXELS,
  ARK_PREFIX,
  ARK_RATIOS,
  FPS,
  MINIMAX_FIELDS,
  MINIMAX_PROMPT_LIMIT,
  MINIMAX_RATIOS,
  MINIMAX_RESOLUTIONS,
} from './video-protocols.js';
import type { VideoFault, VideoRecordedRequest, VideoSimulatorOptions } from './video-options.js';
import { CHUNK, clipChunk, LAST_FRAME_PNG, taskOffset } from './video-clip.js';
import { arkCodeFor, checkContent, denied, isHttpUrl, isObject, json, minimaxTypeFor, parseRange, type Problem } from './video-wire.js';

// Asynchronous video-generation upstreams, strict the way the real vendors are:
// - `ark`: BytePlus ModelArk content-generation tasks (Seedance), served under /api/v3.
// - `minimax`: MiniMax v2 video generation.
// A created task is polled through queued → running → succeeded (or failed / cancelled when a fault
// says so); a succeeded query hands out a fresh signed clip URL on this same server, which serves a
// deterministic mp4-looking body generated on the fly (Range supported), so even a 1 GiB clip is
// streamed without being held in memory. Faults are queued and consumed by the next creates.

const MAX_BODY = 32 * 1024 * 1024;

type Status = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
type Outcome = 'succeeded' | 'moderation' | 'cancelled';

interface Task {
  id: string;
  model: string;
  createdAt: number;
  updatedAt: number;
  /** As requested (ark: 480p…; minimax: 768P…). */
  resolution: string;
  /** As requested (may be `adaptive`). */
  ratio: string;
  /** As requested (ark: -1 means the model chooses). */
  duration: number;
  returnLastFrame: boolean;
  outcome: Outcome;
  polls: number;
  status: Status;
}

interface SignedUrl {
  taskId: string;
  kind: 'mp4' | 'png';
  expiresAtMs: number;
  expires: number;
  epoch: number;
  used: number;
}

export class VideoSimulator {
  readonly requests: VideoRecordedRequest[] = [];
  readonly #faults: VideoFault[] = [];
  readonly #server: Server;
  readonly #options: Required<VideoSimulatorOptions>;
  readonly #tasks = new Map<string, Task>();
  readonly #urls = new Map<string, SignedUrl>();
  readonly #secret = randomBytes(32);
  /**
   * A slow provider: milliseconds each create or query waits before it is answered (0: at once).
   * A caller that leaves meanwhile is counted in `abandoned` and gets no answer (nor a task).
   */
  readonly delays = { create: 0, query: 0 };
  /** Delayed requests whose caller closed the connection before the answer. */
  abandoned = 0;
  #epoch = 0;
  #created = 0;
  #downloads = 0;
  #base = '';

  constructor(options: VideoSimulatorOptions) {
    this.#options = {
      queuedPolls: 1,
      runningPolls: 2,
      clipBytes: 256 * 1024,
      urlTtlSeconds: 86_400,
      urlMaxDownloads: 100,
      record: true,
      ...options,
    };
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    this.#server.keepAliveTimeout = 60_000;
  }

  /** How many tasks were created (refused requests create none). */
  get createdTasks(): number {
    return this.#created;
  }

  /** Clip downloads that completed (whole or ranged). */
  get downloads(): number {
    return this.#downloads;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.#base;
  }

  /** Queues faults, consumed by the next creates in order. */
  fail(...faults: VideoFault[]): void {
    this.#faults.push(...faults);
  }

  /** Every signed URL issued so far stops working. */
  expireUrls(): void {
    this.#epoch += 1;
  }

  /** The exact bytes served for that task's clip. */
  clipFor(taskId: string): Buffer {
    return clipChunk(taskOffset(taskId), 0, this.#options.clipBytes);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rawPath = req.url ?? '/';
    const url = new URL(rawPath, 'http://simulator.invalid');
    const path = url.pathname;

    if (path.startsWith('/clips/')) {
      req.resume();
      if (this.#options.record) this.requests.push({ method, path: rawPath, headers: req.headers, body: undefined });
      return this.#serveClip(req, res, method, path, url.searchParams);
    }

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) {
        this.#error(res, 413, 'The request body is too large.', '');
        req.destroy();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | undefined;
    let badJson = false;
    if (text.length > 0) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (isObject(parsed)) body = parsed;
        else badJson = true;
      } catch {
        badJson = true;
      }
    }
    if (this.#options.record) this.requests.push({ method, path: rawPath, headers: req.headers, body });

    const route = this.#route(method, path);
    if (route === undefined) return this.#error(res, 404, `The requested resource ${path} was not found.`, '', 'NotFound');
    if (req.headers.authorization !== `Bearer ${this.#options.credential}`) return this.#unauthorized(res);

    const delay = route.kind === 'create' ? this.delays.create : route.kind === 'query' ? this.delays.query : 0;
    if (delay > 0 && !(await this.#held(res, delay))) return;
    if (route.kind === 'create') {
      if (badJson || body === undefined) return this.#error(res, 400, 'The request body is not valid JSON object.', '');
      return this.#create(res, body);
    }
    const task = this.#tasks.get(route.id);
    if (task === undefined) return this.#notFound(res, route.id);
    if (route.kind === 'query') return this.#query(res, task);
    return this.#delete(res, task);
  }

  /** Waits `ms`; false (and counted) when the caller left first. */
  async #held(res: ServerResponse, ms: number): Promise<boolean> {
    const left = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        res.off('close', onClose);
        resolve(false);
      }, ms);
      const onClose = () => {
        clearTimeout(timer);
        resolve(true);
      };
      res.once('close', onClose);
    });
    if (left) this.abandoned += 1;
    return !left;
  }

  #route(method: string, path: string): { kind: 'create' } | { kind: 'query' | 'delete'; id: string } | undefined {
    const ark = this.#options.protocol === 'ark';
    const createPath = ark ? ARK_PREFIX : '/v2/video_generation';
    if (path === createPath || path === `${createPath}/`) return method === 'POST' ? { kind: 'create' } : undefined;
    const queryPrefix = ark ? `${ARK_PREFIX}/` : '/v2/query/video_generation/';
    const deletePrefix = ark ? `${ARK_PREFIX}/` : '/v2/video_generation/';
    const id = (prefix: string): string | undefined => {
      if (!path.startsWith(prefix)) return undefined;
      const rest = path.slice(prefix.length);
      if (rest.length === 0 || rest.includes('/')) return undefined;
      try {
        return decodeURIComponent(rest);
      } catch {
        return undefined;
      }
    };
    if (method === 'GET') {
      const found = id(queryPrefix);
      return found === undefined ? undefined : { kind: 'query', id: found };
    }
    if (method === 'DELETE') {
      const found = id(deletePrefix);
      return found === undefined ? undefined : { kind: 'delete', id: found };
    }
    return undefined;
  }

  // ---- create ----

  #create(res: ServerResponse, body: Record<string, unknown>): void {
    const head = this.#faults[0];
    if (head?.status !== undefined) {
      this.#faults.shift();
      if (head.retryAfter !== undefined) res.setHeader('retry-after', String(head.retryAfter));
      return this.#faultError(res, head.status);
    }
    const checked = this.#options.protocol === 'ark' ? this.#validateArk(body) : this.#validateMinimax(body);
    if ('message' in checked) return this.#error(res, 400, checked.message, checked.param);

    // moderation / cancelled faults belong to the next task actually created
    const fault = this.#faults.shift() ?? {};
    const outcome: Outcome = fault.moderation ? 'moderation' : fault.cancelled ? 'cancelled' : 'succeeded';
    const id = this.#newId();
    const now = Math.floor(Date.now() / 1000);
    this.#tasks.set(id, { ...checked, id, createdAt: now, updatedAt: now, outcome, polls: 0, status: 'queued' });
    this.#created += 1;
    if (this.#options.protocol === 'ark') return json(res, 200, { id });
    return json(res, 200, { task_id: id });
  }

  #newId(): string {
    for (;;) {
      let id: string;
      if (this.#options.protocol === 'ark') {
        const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
        const suffix = Array.from(randomBytes(5), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
        id = `cgt-${stamp}-${suffix}`;
      } else {
        id = `${1 + ((randomBytes(1)[0] ?? 0) % 9)}${Array.from(randomBytes(17), (b) => String(b % 10)).join('')}`;
      }
      if (!this.#tasks.has(id)) return id;
    }
  }

  #validateArk(body: Record<string, unknown>): Omit<Task, 'id' | 'createdAt' | 'updatedAt' | 'outcome' | 'polls' | 'status'> | Problem {
    for (const name of Object.keys(body)) {
      if (!ARK_FIELDS.has(name))
        return { message: `The parameter \`${name}\` specified in the request is not valid: unknown parameter.`, param: name };
    }
    const model = body.model;
    if (typeof model !== 'string' || !this.#options.models.includes(model)) {
      return { message: `The model or endpoint ${String(model)} does not exist or you do not have access to it.`, param: 'model' };
    }
    const content = checkContent(body.content);
    if ('message' in content) return content;
    const resolution = body.resolution;
    if (typeof resolution !== 'string' || ARK_PIXELS[resolution] === undefined) {
      return {
        message: 'The parameter `resolution` specified in the request is not valid: must be one of 480p, 720p, 1080p.',
        param: 'resolution',
      };
    }
    const ratio = body.ratio ?? 'adaptive';
    if (typeof ratio !== 'string' || !ARK_RATIOS.has(ratio)) {
      return {
        message: 'The parameter `ratio` specified in the request is not valid: must be one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive.',
        param: 'ratio',
      };
    }
    if (content.image && ratio !== 'adaptive') {
      return {
        message: 'The parameter `ratio` specified in the request is not valid: only adaptive is supported with a first_frame image.',
        param: 'ratio',
      };
    }
    const duration = body.duration;
    if (typeof duration !== 'number' || !Number.isInteger(duration) || (duration !== -1 && (duration < 4 || duration > 30))) {
      return {
        message: 'The parameter `duration` specified in the request is not valid: must be an integer from 4 to 30, or -1.',
        param: 'duration',
      };
    }
    for (const name of ['watermark', 'camera_fixed', 'return_last_frame']) {
      if (body[name] !== undefined && typeof body[name] !== 'boolean') {
        return { message: `The parameter \`${name}\` specified in the request is not valid: must be a boolean.`, param: name };
      }
    }
    const seed = body.seed;
    if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -1 || seed > 4_294_967_295)) {
      return {
        message: 'The parameter `seed` specified in the request is not valid: must be an integer from -1 to 4294967295.',
        param: 'seed',
      };
    }
    if (body.callback_url !== undefined && !isHttpUrl(body.callback_url)) {
      return {
        message: 'The parameter `callback_url` specified in the request is not valid: must be an http(s) URL.',
        param: 'callback_url',
      };
    }
    return { model, resolution, ratio, duration, returnLastFrame: body.return_last_frame === true };
  }

  #validateMinimax(body: Record<string, unknown>): Omit<Task, 'id' | 'createdAt' | 'updatedAt' | 'outcome' | 'polls' | 'status'> | Problem {
    for (const name of Object.keys(body)) {
      if (!MINIMAX_FIELDS.has(name)) return { message: `invalid params: unknown field ${name}`, param: name };
    }
    const model = body.model;
    if (typeof model !== 'string' || !this.#options.models.includes(model))
      return { message: `invalid params: model ${String(model)} is not supported`, param: 'model' };
    const content = checkContent(body.content);
    if ('message' in content) return content;
    if (content.text.length > MINIMAX_PROMPT_LIMIT) {
      return { message: `invalid params: prompt exceeds ${MINIMAX_PROMPT_LIMIT} characters`, param: 'content' };
    }
    const resolution = body.resolution ?? '768P';
    if (typeof resolution !== 'string' || !MINIMAX_RESOLUTIONS.has(resolution)) {
      return { message: 'invalid params: resolution must be one of 480P, 768P, 1080P, 2K', param: 'resolution' };
    }
    const duration = body.duration ?? 6;
    if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 1 || duration > 15) {
      return { message: 'invalid params: duration must be an integer from 1 to 15', param: 'duration' };
    }
    const ratio = body.ratio;
    if (content.image) {
      if (ratio !== undefined && ratio !== 'adaptive')
        return { message: 'invalid params: ratio must be adaptive with a first_frame image', param: 'ratio' };
    } else if (typeof ratio !== 'string' || !MINIMAX_RATIOS.has(ratio)) {
      return { message: 'invalid params: text-to-video requires ratio, one of 16:9, 9:16, 1:1, 4:3, 3:4, 21:9', param: 'ratio' };
    }
    if (body.prompt_optimizer !== undefined && typeof body.prompt_optimizer !== 'boolean') {
      return { message: 'invalid params: prompt_optimizer must be a boolean', param: 'prompt_optimizer' };
    }
    if (body.callback_url !== undefined && !isHttpUrl(body.callback_url))
      return { message: 'invalid params: callback_url must be an http(s) URL', param: 'callback_url' };
    return { model, resolution, ratio: typeof ratio === 'string' ? ratio : 'adaptive', duration, returnLastFrame: false };
  }

  // ---- query / delete ----

  #advance(task: Task): void {
    if (task.status !== 'queued' && task.status !== 'running') return;
    task.polls += 1;
    const { queuedPolls, runningPolls } = this.#options;
    let next: Status;
    if (task.polls <= queuedPolls) next = 'queued';
    else if (task.outcome === 'moderation') next = 'failed';
    else if (task.outcome === 'cancelled') next = 'cancelled';
    else if (task.polls <= queuedPolls + runningPolls) next = 'running';
    else next = 'succeeded';
    if (next !== task.status) {
      task.status = next;
      task.updatedAt = Math.floor(Date.now() / 1000);
    }
  }

  #query(res: ServerResponse, task: Task): void {
    this.#advance(task);
    const succeeded = task.status === 'succeeded';
    if (this.#options.protocol === 'ark') {
      const ratio = task.ratio === 'adaptive' ? '16:9' : task.ratio;
      const duration = task.duration === -1 ? 5 : task.duration;
      const [width, height] = ARK_PIXELS[task.resolution]?.[ratio] ?? [0, 0];
      const tokens = Math.floor((width * height * (duration * FPS + 1)) / 1024);
      const answer: Record<string, unknown> = {
        id: task.id,
        model: task.model,
        status: task.status,
        error:
          task.status === 'failed'
            ? { code: 'OutputVideoSensitiveContentDetected', message: 'The generated video may contain sensitive content.' }
            : null,
        created_at: task.createdAt,
        updated_at: task.updatedAt,
      };
      if (succeeded) {
        answer.content = {
          video_url: this.#sign(task.id, 'mp4'),
          ...(task.returnLastFrame ? { last_frame_url: this.#sign(task.id, 'png') } : {}),
        };
      }
      Object.assign(answer, { resolution: task.resolution, ratio, duration, framespersecond: FPS });
      if (succeeded) answer.usage = { completion_tokens: tokens, total_tokens: tokens };
      return json(res, 200, answer);
    }
    const answer: Record<string, unknown> = { id: task.id, model: task.model, status: task.status };
    if (succeeded) answer.content = { url: this.#sign(task.id, 'mp4'), duration: task.duration };
    Object.assign(answer, {
      resolution: task.resolution,
      ratio: task.ratio,
      usage: succeeded ? { duration_seconds: task.duration, resolution: task.resolution } : null,
      error:
        task.status === 'failed'
          ? { type: 'content_moderation', message: 'The input or output was rejected by content moderation.' }
          : null,
    });
    return json(res, 200, { task: answer });
  }

  /** Both vendors: a queued task is cancelled, a finished record is deleted, a running or cancelled one refuses. */
  #delete(res: ServerResponse, task: Task): void {
    if (task.status === 'running' || task.status === 'cancelled') {
      return this.#error(res, 400, `The task ${task.id} is ${task.status} and cannot be cancelled or deleted.`, 'id', 'InvalidAction');
    }
    const action = task.status === 'queued' ? 'cancel' : 'delete';
    if (action === 'cancel') {
      task.status = 'cancelled';
      task.updatedAt = Math.floor(Date.now() / 1000);
    } else {
      this.#tasks.delete(task.id);
    }
    return json(res, 200, this.#options.protocol === 'ark' ? {} : { task_id: task.id, action });
  }

  // ---- signed clip URLs ----

  #sign(taskId: string, kind: 'mp4' | 'png'): string {
    const opaque = randomBytes(16).toString('hex');
    const expiresAtMs = Date.now() + this.#options.urlTtlSeconds * 1000;
    const expires = Math.ceil(expiresAtMs / 1000);
    this.#urls.set(opaque, { taskId, kind, expiresAtMs, expires, epoch: this.#epoch, used: 0 });
    return `${this.#base}/clips/${opaque}.${kind}?X-Expires=${expires}&X-Signature=${this.#signature(opaque, kind, expires)}`;
  }

  #signature(opaque: string, kind: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${opaque}.${kind}\n${expires}`).digest('hex');
  }

  #serveClip(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams): void {
    if (method !== 'GET' && method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return denied(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
    const match = /^\/clips\/([0-9a-f]{32})\.(mp4|png)$/.exec(path);
    const opaque = match?.[1];
    const kind = match?.[2];
    const signed = opaque === undefined ? undefined : this.#urls.get(opaque);
    if (opaque === undefined || kind === undefined || signed === undefined || signed.kind !== kind) {
      return denied(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    }
    const expires = query.get('X-Expires');
    const signature = query.get('X-Signature') ?? '';
    const expected = this.#signature(opaque, kind, signed.expires);
    if (
      expires !== String(signed.expires) ||
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature, 'latin1'), Buffer.from(expected, 'latin1'))
    ) {
      return denied(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    if (signed.epoch !== this.#epoch || Date.now() >= signed.expiresAtMs) return denied(res, 403, 'AccessDenied', 'Request has expired.');
    if (signed.used >= this.#options.urlMaxDownloads)
      return denied(res, 403, 'AccessDenied', 'The download limit of this signed URL has been reached.');

    if (kind === 'png') {
      if (method === 'GET') signed.used += 1;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': LAST_FRAME_PNG.length });
      res.end(method === 'HEAD' ? undefined : LAST_FRAME_PNG);
      return;
    }

    const size = this.#options.clipBytes;
    const headers: Record<string, string | number> = {
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      etag: `"${signed.taskId}-${size}"`,
    };
    let start = 0;
    let end = size; // exclusive
    let status = 200;
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-type': 'application/xml', 'content-length': 0 });
      res.end();
      return;
    }
    if (range !== undefined) {
      ({ start, end } = range);
      status = 206;
      headers['content-range'] = `bytes ${start}-${end - 1}/${size}`;
    }
    headers['content-length'] = end - start;
    res.writeHead(status, headers);
    if (method === 'HEAD') {
      res.end();
      return;
    }
    signed.used += 1;
    const offset = taskOffset(signed.taskId);
    let pos = start;
    const body = new Readable({
      highWaterMark: CHUNK,
      read() {
        if (pos >= end) {
          this.push(null);
          return;
        }
        const length = Math.min(CHUNK, end - pos);
        const chunk = clipChunk(offset, pos, length);
        pos += length;
        this.push(chunk);
      },
    });
    pipeline(body, res, (err) => {
      if (!err) this.#downloads += 1;
    });
  }

  // ---- vendor error bodies ----

  #error(res: ServerResponse, status: number, message: string, param: string, arkCode?: string): void {
    if (this.#options.protocol === 'ark') {
      return json(res, status, { error: { code: arkCode ?? (status === 400 ? 'InvalidParameter' : arkCodeFor(status)), message, param } });
    }
    return json(res, status, { type: 'error', error: { type: minimaxTypeFor(status), message } });
  }

  #faultError(res: ServerResponse, status: number): void {
    const message =
      status === 429
        ? 'The request has exceeded the rate limit. Please retry later.'
        : status >= 500
          ? 'The service encountered an unexpected internal error.'
          : `The request failed with status ${status}.`;
    if (this.#options.protocol === 'ark') return json(res, status, { error: { code: arkCodeFor(status), message, param: '' } });
    return json(res, status, { type: 'error', error: { type: minimaxTypeFor(status), message } });
  }

  #unauthorized(res: ServerResponse): void {
    if (this.#options.protocol === 'ark') {
      return json(res, 401, {
        error: { code: 'AuthenticationError', message: 'The API key in the request is missing or invalid.', param: '' },
      });
    }
    return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid api key' } });
  }

  #notFound(res: ServerResponse, id: string): void {
    if (this.#options.protocol === 'ark') {
      return json(res, 404, { error: { code: 'ResourceNotFound', message: `The specified task ${id} is not found.` } });
    }
    return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `task ${id} not found` } });
  }
}
