import type { ChatGroupConfig, RouterConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { fieldsOf, type Logger, type RequestScope } from '@gateway/logging';
import { newCompletionId, type BudgetClaim, type CallBudget } from '@gateway/contracts';
import { countTokens, recordClientSpan, tracingEnabled, upstreamSeries } from '@gateway/telemetry';
import { failureReason, UpstreamFailure, type Attempt as RoutedAttempt, type Router } from '@gateway/upstream';
import { buildUpstreamBody, type ChatProvider, type LocalUpstream } from '../providers/index.js';
import { chatCost, normalizeUsage, readUsage, type ChatUsage, type Meter } from './metering.js';
import { isObject, validateChatRequest, type ChatRequest, type JsonObject } from './request.js';

export interface CompletionInput {
  keyId: string;
  /** As the caller sent it; echoed in every response. */
  model: string;
  /** The group `model` resolved to. */
  groupId: string;
  /** Chosen by the edge so a repeated call is billed once; else chosen here. */
  completionId?: string;
  body: Buffer;
  requestId: string | undefined;
  /** The call's request and trace, passed on to accounting and into log lines. */
  scope?: RequestScope;
  signal: AbortSignal;
  /** Receives the time spent waiting on upstream attempts (the gRPC call's CallInfo, in the service). */
  timing: UpstreamTiming;
}

export interface UpstreamTiming {
  /** Milliseconds waited on upstreams so far: to the full answer, or to the first chunk of a stream. */
  upstreamMs: number;
}

type Attempt = RoutedAttempt<ChatGroupConfig>;

/** A call's tokens and price as metered (the proto's MeteredUsage). */
export interface MeteredUsage extends ChatUsage {
  cost_nano_usd: number;
}

/** A deployment as logs name it: its provider and the model it calls there. */
function deploymentName(attempt: Attempt): string {
  return `${attempt.deployment.provider}/${attempt.deployment.model}`;
}

/** Receives a stream's chunks; the last call, once metered, has none and the usage. */
export type StreamWrite = (chunks: Buffer[], usage?: MeteredUsage) => Promise<void>;

const CHAT_PATH = '/chat/completions';

export { newCompletionId };

/**
 * One chat completion from validation to metering: the router's attempts in order until one
 * succeeds, the provider's transforms, the caller's `model` echoed, and the spend published.
 */
export class ChatCompletions {
  constructor(
    private readonly groups: ReadonlyMap<string, ChatGroupConfig>,
    private readonly providers: ReadonlyMap<string, ChatProvider>,
    private readonly router: Router<ChatGroupConfig>,
    /** HTTP to the vendors, or a provider's local answers: the two calls are the same. */
    private readonly upstream: LocalUpstream,
    private readonly meter: Meter,
    private readonly routing: RouterConfig,
    private readonly logger: Logger,
    private readonly budget: CallBudget,
  ) {}

  /** Holds the call's worst case: the prompt estimated high, plus every completion token it may produce. */
  #reserve(input: CompletionInput, group: ChatGroupConfig, request: ChatRequest, completionId: string): Promise<BudgetClaim> {
    const amount = worstCaseCost(group, request);
    return this.budget.claim(
      { keyId: input.keyId, group: group.id, amountNanoUsd: amount, reservationId: completionId },
      { requestId: input.requestId, scope: input.scope },
    );
  }

  async #release(input: CompletionInput, claim: BudgetClaim): Promise<void> {
    await this.budget.unclaim(input.keyId, claim, { requestId: input.requestId, scope: input.scope }).catch((error: unknown) => {
      // The sweeper gives it back later; the call's own failure is what the caller must hear.
      this.logger.warn({ ...fieldsOf(input.scope), err: error }, 'could not release a reservation');
    });
  }

  #prepare(input: CompletionInput): { group: ChatGroupConfig; request: ChatRequest } {
    const group = this.groups.get(input.groupId);
    if (!group) throw new GatewayError('model_not_found');
    let body: unknown;
    try {
      body = JSON.parse(input.body.toString('utf8'));
    } catch {
      throw new GatewayError('invalid_json');
    }
    return { group, request: validateChatRequest(body, group) };
  }

  #provider(attempt: Attempt): ChatProvider {
    const provider = this.providers.get(attempt.deployment.provider);
    if (!provider) throw new GatewayError('internal_error', { cause: new Error(`no chat provider "${attempt.deployment.provider}"`) });
    return provider;
  }

  #call(attempt: Attempt, request: ChatRequest, signal: AbortSignal) {
    return {
      deployment: attempt.deployment,
      path: CHAT_PATH,
      body: buildUpstreamBody(this.#provider(attempt), request, attempt),
      timeoutMs: attempt.deployment.timeoutMs ?? this.routing.timeoutMs,
      signal,
    };
  }

  /** Runs the router's attempts until one succeeds, timing and logging each. */
  #route<T>(
    group: ChatGroupConfig,
    input: CompletionInput,
    run: (attempt: Attempt) => Promise<T>,
  ): Promise<{ attempt: Attempt; result: T }> {
    let attempts = 0;
    return this.router.route(group, run, {
      signal: input.signal,
      onOutcome: (attempt, outcome, startedAt) => {
        attempts += 1;
        this.#timed(input, attempt, startedAt, outcome);
      },
      // One line per failed attempt, at its size: the router handled it (the next attempt, or
      // the caller's error); the request's own end is the edge's access line.
      onFailure: (attempt, error) =>
        this.logger.warn(
          {
            ...fieldsOf(input.scope),
            group: attempt.group.id,
            deployment: deploymentName(attempt),
            attempt: attempts,
            code: error.code,
            upstreamStatus: error.status,
            reason: failureReason(error),
          },
          'upstream attempt failed',
        ),
    });
  }

  /**
   * One attempt's upstream time, taken once: observed in gateway_upstream_duration_seconds,
   * added to the call's total (which goes back to the edge), and, while tracing, a client span.
   */
  #timed(input: CompletionInput, attempt: Attempt, startedAt: number, outcome: string): void {
    const endedAt = performance.now();
    const ms = endedAt - startedAt;
    input.timing.upstreamMs += ms;
    upstreamSeries(attempt.group.id, attempt.deployment.provider, outcome).observe(ms / 1000);
    if (tracingEnabled()) {
      recordClientSpan(
        `upstream ${attempt.deployment.provider}`,
        startedAt,
        endedAt,
        {
          'gateway.group': attempt.group.id,
          'gateway.provider': attempt.deployment.provider,
          'gateway.outcome': outcome,
        },
        outcome === 'ok' ? undefined : outcome,
      );
    }
  }

  async #meter(
    input: CompletionInput,
    completionId: string,
    servedBy: ChatGroupConfig,
    usage: ChatUsage,
    claim: BudgetClaim,
  ): Promise<MeteredUsage> {
    await this.meter.record({ completionId, keyId: input.keyId, group: input.groupId, servedBy, usage, claim });
    countTokens(input.groupId, usage.prompt_tokens, usage.completion_tokens, usage.reasoning_tokens);
    if (this.logger.isLevelEnabled('debug'))
      this.logger.debug({ ...fieldsOf(input.scope), group: servedBy.id, completionId }, 'chat completion served');
    return { ...usage, cost_nano_usd: chatCost(usage, servedBy) };
  }

  /** A plain call: the response body, OpenAI-shaped, as JSON bytes, and what it was metered at. */
  async create(input: CompletionInput): Promise<{ body: Buffer; usage: MeteredUsage | undefined }> {
    const { group, request } = this.#prepare(input);
    if (request.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Streamed calls use the streaming RPC.' });
    const completionId = input.completionId ?? newCompletionId();
    const claim = await this.#reserve(input, group, request, completionId);
    let routed: { attempt: Attempt; result: JsonObject };
    try {
      routed = await this.#route(group, input, (a) => this.upstream.complete(this.#call(a, request, input.signal)));
    } catch (error) {
      await this.#release(input, claim);
      throw error;
    }
    const { attempt, result: response } = routed;
    this.#provider(attempt).response?.(response);
    response.id = completionId;
    response.model = input.model;
    if (response.system_fingerprint !== undefined) response.system_fingerprint = undefined;
    const usage = readUsage(response.usage);
    if (isObject(response.usage)) normalizeUsage(response.usage);
    // An answer without usage cannot be metered exactly; it is billed as nothing and logged.
    let metered: MeteredUsage | undefined;
    if (usage) metered = await this.#meter(input, completionId, attempt.group, usage, claim);
    else {
      this.logger.error({ ...fieldsOf(input.scope), group: group.id }, 'upstream response without usage; not metered');
      await this.#release(input, claim);
    }
    return { body: Buffer.from(JSON.stringify(response)), usage: metered };
  }

  /**
   * A streamed call: `write` receives the chunks as JSON bytes, those that arrived together in
   * one call. Before the first chunk a failure moves on to the next attempt; after it, the
   * failure ends the stream. Billed once the upstream's usage has arrived; the last write then
   * carries no chunks and what the call was metered at.
   */
  async stream(input: CompletionInput, write: StreamWrite): Promise<void> {
    const { group, request } = this.#prepare(input);
    if (!request.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Plain calls use the unary RPC.' });
    const completionId = input.completionId ?? newCompletionId();
    const claim = await this.#reserve(input, group, request, completionId);
    try {
      await this.#streamReserved(input, group, request, completionId, claim, write);
    } catch (error) {
      await this.#release(input, claim);
      throw error;
    }
  }

  async #streamReserved(
    input: CompletionInput,
    group: ChatGroupConfig,
    request: ChatRequest,
    completionId: string,
    claim: BudgetClaim,
    write: StreamWrite,
  ): Promise<void> {
    const { attempt, result: opened } = await this.#route(group, input, async (a) => {
      const upstream = await this.upstream.stream(this.#call(a, request, input.signal));
      // The first events are read inside the attempt, so a stream that fails at once is retried.
      try {
        const first = await upstream.batches.next();
        return { upstream, first };
      } catch (error) {
        upstream.close();
        throw error;
      }
    });
    const { upstream } = opened;
    const provider = this.#provider(attempt);
    let usage: ChatUsage | undefined;
    try {
      for (let next = opened.first; !next.done; next = await upstream.batches.next()) {
        const out: Buffer[] = [];
        for (const data of next.value) {
          const chunk = parseChunk(data);
          if (chunk.error !== undefined) throw new UpstreamFailure('protocol');
          const chunkUsage = isObject(chunk.usage) ? chunk.usage : undefined;
          if (chunkUsage) usage = readUsage(chunkUsage);
          const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunkUsage !== undefined;
          if (usageOnly && !request.includeUsage) continue;
          provider.chunk?.(chunk);
          chunk.id = completionId;
          chunk.model = input.model;
          // Undefined, which JSON.stringify leaves out, rather than deleted: a delete turns the
          // object into a dictionary in V8, a third slower to stringify, once per chunk.
          if (chunk.system_fingerprint !== undefined) chunk.system_fingerprint = undefined;
          if (!request.includeUsage) {
            if (chunk.usage !== undefined) chunk.usage = undefined;
          } else if (chunkUsage) normalizeUsage(chunkUsage);
          out.push(Buffer.from(JSON.stringify(chunk)));
        }
        if (out.length > 0) await write(out);
      }
    } catch (error) {
      upstream.close();
      if (error instanceof UpstreamFailure) {
        this.logger.warn(
          {
            ...fieldsOf(input.scope),
            group: attempt.group.id,
            deployment: deploymentName(attempt),
            code: error.code,
            reason: failureReason(error),
          },
          'upstream stream failed after it started',
        );
        throw error.toGatewayError();
      }
      throw error;
    }
    if (usage) await write([], await this.#meter(input, completionId, attempt.group, usage, claim));
    else {
      this.logger.error({ ...fieldsOf(input.scope), group: group.id }, 'upstream stream without usage; not metered');
      await this.#release(input, claim);
    }
  }
}

/** Tokens per image part held before the call (a high-detail image costs about 765-1,105). */
const IMAGE_TOKENS = 1500;

/**
 * The most a call can cost: prompt tokens estimated high (one per two bytes of message text,
 * images at a fixed count, capped by the group's input window) plus the completion limit asked
 * for, else the group's maximum output.
 */
export function worstCaseCost(group: ChatGroupConfig, request: ChatRequest): number {
  let bytes = 0;
  let images = 0;
  for (const message of request.messages) {
    const content = message.content;
    if (typeof content === 'string') bytes += Buffer.byteLength(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: string }[]) {
        if (part.type === 'image_url') images += 1;
        else if (typeof part.text === 'string') bytes += Buffer.byteLength(part.text);
      }
    }
  }
  const prompt = Math.min(group.maxInputTokens, Math.ceil(bytes / 2) + images * IMAGE_TOKENS + 16 * request.messages.length);
  const asked = request.body.max_completion_tokens ?? request.body.max_tokens;
  const completion = typeof asked === 'number' ? asked : group.maxOutputTokens;
  return prompt * group.price.inputNanosPerToken + completion * group.price.outputNanosPerToken;
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
