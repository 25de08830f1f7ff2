import type { ChatGroupConfig, RouterConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { fieldsOf, type Logger, type RequestScope } from '@gateway/logging';
import { newCompletionId, type BudgetClaim, type CallBudget } from '@gateway/contracts';
import { countEstimatedCall, countTokens, recordClientSpan, tracingEnabled, upstreamSeries } from '@gateway/telemetry';
import { failureReason, UpstreamFailure, type Attempt as RoutedAttempt, type Router } from '@gateway/upstream';
import { buildUpstreamBody, type ChatProvider, type LocalUpstream } from '../providers/index.js';
import type { UpstreamStream } from '../upstream/client.js';
import { CompletionTally, estimateUsage } from './estimate.js';
import { worstCaseCost } from './hold.js';
import type { Meter, MeteredUsage } from './metering.js';
import { isObject, validateChatRequest, type ChatRequest, type JsonObject } from './request.js';
import { StreamChunks, type ChunkDialect } from './stream-chunks.js';
import { normalizeUsage, readUsage, usageBlock, type ChatUsage } from './usage.js';

export type { MeteredUsage } from './metering.js';
export type { ChunkDialect } from './stream-chunks.js';

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
  /** The gRPC call's deadline, Unix ms (Infinity: none): the budget hold inherits it, with `signal`. */
  deadline?: number;
  /** Receives the time spent waiting on upstream attempts (the gRPC call's CallInfo, in the service). */
  timing: UpstreamTiming;
}

export interface UpstreamTiming {
  /** Milliseconds waited on upstreams so far: to the full answer, or to the first chunk of a stream. */
  upstreamMs: number;
}

type Attempt = RoutedAttempt<ChatGroupConfig>;

/** The attempt that served a call, and when (Unix ms, the call's clock) it started: its price window. */
interface Served {
  attempt: Attempt;
  startedAtMs: number;
}

/** What one call is billed on, once its answer (or the caller) is gone. */
interface Bill {
  input: CompletionInput;
  completionId: string;
  served: Served;
  usage: ChatUsage;
  claim: BudgetClaim;
  /** Set when the gateway counted the tokens itself: why. */
  estimated?: 'caller_left' | 'no_usage';
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
    /** Unix ms now: which price window a call starts in. */
    private readonly clock: () => number = Date.now,
  ) {}

  /** Holds the call's worst case: the whole prompt counted high, plus every completion token it may produce. */
  #reserve(input: CompletionInput, group: ChatGroupConfig, request: ChatRequest, completionId: string): Promise<BudgetClaim> {
    const amount = worstCaseCost(group, request);
    return this.budget.claim(
      { keyId: input.keyId, group: group.id, amountNanoUsd: amount, reservationId: completionId },
      // A hung accounting fails the hold within the call's deadline, and a caller that leaves cancels it.
      { requestId: input.requestId, scope: input.scope, deadline: input.deadline, signal: input.signal },
    );
  }

  async #release(input: CompletionInput, claim: BudgetClaim): Promise<void> {
    await this.budget.unclaim(input.keyId, claim, { requestId: input.requestId, scope: input.scope }).catch((error: unknown) => {
      // The sweeper gives it back later; the call's own failure is what the caller must hear.
      this.logger.warn({ ...fieldsOf(input.scope), err: error }, 'could not release a reservation');
    });
  }

  /** A chat group this service serves, by id. */
  groupOf(id: string): ChatGroupConfig {
    const group = this.groups.get(id);
    if (!group) throw new GatewayError('model_not_found');
    return group;
  }

  /** The group a call addresses and its body, validated. */
  prepare(input: CompletionInput): { group: ChatGroupConfig; request: ChatRequest } {
    const group = this.groupOf(input.groupId);
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

  /** Runs the router's attempts until one succeeds, timing and logging each; says when the winner started. */
  async #route<T>(group: ChatGroupConfig, input: CompletionInput, run: (attempt: Attempt) => Promise<T>): Promise<Served & { result: T }> {
    let attempts = 0;
    let startedAtMs = 0;
    const routed = await this.router.route(
      group,
      (attempt) => {
        startedAtMs = this.clock();
        return run(attempt);
      },
      {
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
      },
    );
    return { attempt: routed.attempt, result: routed.result, startedAtMs };
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

  /** Prices and publishes the call's spend, counts its tokens; an estimate is counted and logged as one. */
  async #meter({ input, completionId, served, usage, claim, estimated }: Bill): Promise<MeteredUsage> {
    const metered = await this.meter.record({
      completionId,
      keyId: input.keyId,
      group: input.groupId,
      servedBy: served.attempt.group,
      usage,
      startedAtMs: served.startedAtMs,
      estimated: estimated !== undefined,
      claim,
    });
    countTokens(input.groupId, {
      prompt: usage.prompt_tokens,
      cached: usage.cached_tokens,
      completion: usage.completion_tokens,
      reasoning: usage.reasoning_tokens,
    });
    if (estimated) {
      countEstimatedCall(input.groupId);
      this.logger.info(
        {
          ...fieldsOf(input.scope),
          group: input.groupId,
          completionId,
          reason: estimated,
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          reasoningTokens: usage.reasoning_tokens,
          costUsd: metered.cost_nano_usd / 1e9,
        },
        'chat call billed on an estimate',
      );
    } else if (this.logger.isLevelEnabled('debug'))
      this.logger.debug({ ...fieldsOf(input.scope), group: served.attempt.group.id, completionId }, 'chat completion served');
    return metered;
  }

  /** A plain call: the response body, OpenAI-shaped, as JSON bytes, and what it was metered at. */
  async create(input: CompletionInput): Promise<{ body: Buffer; usage: MeteredUsage }> {
    const { group, request } = this.prepare(input);
    const { response, usage } = await this.complete(input, group, request);
    return { body: Buffer.from(JSON.stringify(response)), usage };
  }

  /**
   * A plain call on a validated request (a chat body, or another dialect's translated onto one):
   * the chat.completion object, its usage normalized, and what it was metered at.
   */
  async complete(
    input: CompletionInput,
    group: ChatGroupConfig,
    request: ChatRequest,
  ): Promise<{ response: JsonObject; usage: MeteredUsage }> {
    if (request.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Streamed calls use the streaming RPC.' });
    const completionId = input.completionId ?? newCompletionId();
    const claim = await this.#reserve(input, group, request, completionId);
    let served: Served & { result: JsonObject };
    try {
      served = await this.#route(group, input, (a) => this.upstream.complete(this.#call(a, request, input.signal)));
    } catch (error) {
      await this.#release(input, claim);
      throw error;
    }
    const response = served.result;
    this.#provider(served.attempt).response?.(response);
    response.id = completionId;
    response.model = input.model;
    if (response.system_fingerprint !== undefined) response.system_fingerprint = undefined;
    const bill: Bill = { input, completionId, served, usage: readUsage(response.usage) as ChatUsage, claim };
    if (isObject(response.usage)) normalizeUsage(response.usage);
    else {
      // An answer without usage is billed on the gateway's own count, and shows that count.
      const tally = new CompletionTally();
      tally.addResponse(response);
      bill.usage = estimateUsage(request, tally);
      bill.estimated = 'no_usage';
      response.usage = usageBlock(bill.usage);
      this.logger.warn({ ...fieldsOf(input.scope), group: group.id }, 'upstream response without usage; billed on an estimate');
    }
    return { response, usage: await this.#meter(bill) };
  }

  /**
   * A streamed call: `write` receives the chunks as JSON bytes, those that arrived together in
   * one call. Before the first chunk a failure moves on to the next attempt; after it, the
   * failure ends the stream. Billed once the upstream's usage has arrived; the last write then
   * carries no chunks and what the call was metered at. A call the caller leaves once the
   * upstream has answered is billed on the gateway's count of what it consumed.
   */
  async stream(input: CompletionInput, write: StreamWrite): Promise<void> {
    const { group, request } = this.prepare(input);
    await this.streamPrepared(input, group, request, write);
  }

  /**
   * A streamed call on a validated request. `dialect` writes the chunks in another API's event
   * grammar (the Responses API); without it they go out as chat chunks.
   */
  async streamPrepared(
    input: CompletionInput,
    group: ChatGroupConfig,
    request: ChatRequest,
    write: StreamWrite,
    dialect?: ChunkDialect,
  ): Promise<void> {
    if (!request.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Plain calls use the unary RPC.' });
    const completionId = input.completionId ?? newCompletionId();
    const claim = await this.#reserve(input, group, request, completionId);
    let answered: Served | undefined;
    let chunks: StreamChunks | undefined;
    try {
      const opened = await this.#open(input, group, request, (served) => {
        answered = served;
      });
      chunks = new StreamChunks(this.#provider(opened.attempt), request, completionId, input.model, dialect);
      await this.#relay(input, opened, chunks, write);
    } catch (error) {
      // The caller left (or was cut for not reading) after the upstream answered: the vendor
      // bills what it processed, so the call is billed: on the upstream's usage if it came,
      // else on the gateway's count of the prompt and of what the upstream had sent.
      if (input.signal.aborted && answered) {
        const exact = chunks?.usage;
        const bill: Bill = {
          input,
          completionId,
          served: answered,
          usage: exact ?? estimateUsage(request, chunks?.tally ?? new CompletionTally()),
          claim,
        };
        await this.#meter(exact ? bill : { ...bill, estimated: 'caller_left' });
      } else await this.#release(input, claim);
      throw error;
    }
    await this.#settle(
      { input, completionId, served: answered as Served, usage: chunks.usage as ChatUsage, claim },
      request,
      chunks,
      write,
    );
  }

  /**
   * Bills the finished stream: on the upstream's usage, else on the gateway's count; then the
   * closing frames (chat's estimated usage chunk when asked, another dialect's last events) go
   * out with what the call was metered at.
   */
  async #settle(bill: Bill, request: ChatRequest, chunks: StreamChunks, write: StreamWrite): Promise<void> {
    // A local upstream (the demo) ends its stream quietly when the caller leaves: that is the caller's doing.
    const left = bill.input.signal.aborted;
    if (!chunks.usage) {
      if (!left)
        this.logger.warn(
          { ...fieldsOf(bill.input.scope), group: bill.input.groupId },
          'upstream stream without usage; billed on an estimate',
        );
      bill.usage = estimateUsage(request, chunks.tally);
      bill.estimated = left ? 'caller_left' : 'no_usage';
    }
    const metered = await this.#meter(bill);
    await write(left ? [] : await chunks.end(bill.usage, bill.estimated !== undefined), metered);
  }

  /** Routes the stream: an attempt succeeds once its first events are read, so a stream that fails at once is retried. */
  async #open(
    input: CompletionInput,
    group: ChatGroupConfig,
    request: ChatRequest,
    onAnswered: (served: Served | undefined) => void,
  ): Promise<Served & { result: { upstream: UpstreamStream; first: IteratorResult<string[]> } }> {
    return this.#route(group, input, async (a) => {
      const startedAtMs = this.clock();
      const upstream = await this.upstream.stream(this.#call(a, request, input.signal));
      // From its 200 on, the upstream is working on the prompt: a caller leaving now is billed.
      onAnswered({ attempt: a, startedAtMs });
      try {
        const first = await upstream.batches.next();
        return { upstream, first };
      } catch (error) {
        upstream.close();
        // A failed attempt is the vendor's failure, never billed (unless the caller left during it).
        if (!input.signal.aborted) onAnswered(undefined);
        throw error;
      }
    });
  }

  /** Relays the upstream's batches to the caller; a failure after the first chunk ends the stream unbilled. */
  async #relay(
    input: CompletionInput,
    opened: Served & { result: { upstream: UpstreamStream; first: IteratorResult<string[]> } },
    chunks: StreamChunks,
    write: StreamWrite,
  ): Promise<void> {
    const { upstream, first } = opened.result;
    try {
      for (let next = first; !next.done; next = await upstream.batches.next()) {
        const out = chunks.translate(next.value);
        if (out.length > 0) await write(out);
      }
    } catch (error) {
      upstream.close();
      if (error instanceof UpstreamFailure && !input.signal.aborted) {
        this.logger.warn(
          {
            ...fieldsOf(input.scope),
            group: opened.attempt.group.id,
            deployment: deploymentName(opened.attempt),
            code: error.code,
            reason: failureReason(error),
          },
          'upstream stream failed after it started',
        );
        throw error.toGatewayError();
      }
      throw error;
    }
  }
}
