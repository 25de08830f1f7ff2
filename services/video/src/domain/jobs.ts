import type { Bus } from '@gateway/bus';
import {
  encodeSpendEvent,
  spendSubject,
  timeOrderedHex,
  type BudgetAuthority,
  type HoldContext,
  type SpendEvent,
} from '@gateway/contracts';
import type { DeploymentConfig, Env, VideoGroupConfig, VideoServiceConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { fieldsOf, type Logger, type RequestContext } from '@gateway/logging';
import { videoJobSeries } from '@gateway/telemetry';
import { failureReason, UpstreamFailure, type Router } from '@gateway/upstream';
import type { JobStatus, ProviderTask, RenderRequest, VideoProvider } from '../providers/index.js';
import type { ProviderHttp } from '../upstream.js';

const JOB_STATUSES: readonly JobStatus[] = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'];
import { estimatedCost, jobCost } from './pricing.js';
import type { TaskRecord, TaskRepository } from './tasks.js';
import { validateCreate, type CreateInput } from './validate.js';

const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 5 * 60_000;
/** A signed address is fetched again after this age or this many downloads (limits: 24 h, 100). */
const URL_MAX_AGE_MS = 23 * 3600_000;
const URL_MAX_DOWNLOADS = 90;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/**
 * How long before its call's deadline a GET stops waiting for the provider's answer and answers
 * from the record: enough for the answer to reach the edge in time.
 */
const ANSWER_MARGIN_MS = 300;

/** The promise's value, or undefined once `ms` have passed first (the promise goes on). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Time-ordered, as completion ids are: the tasks table and the ledger append rather than scatter. */
export function newJobId(): string {
  return `video_${timeOrderedHex()}`;
}

export interface VideoJobsDeps {
  groups: ReadonlyMap<string, VideoGroupConfig>;
  providers: ReadonlyMap<string, VideoProvider>;
  http: ProviderHttp;
  tasks: TaskRepository;
  bus: Bus;
  logger: Logger;
  config: VideoServiceConfig;
  env: Env;
  budget: BudgetAuthority;
  /** The upstream kit's router over the video groups (the same `router:` settings as chat). */
  router: Router<VideoGroupConfig>;
}

/** Whether a group can render the request as the requested group resolved it (a fallback must take it unchanged). */
function fits(group: VideoGroupConfig, request: RenderRequest, maxPromptChars: number): boolean {
  const spec = group.video;
  return (
    spec.resolutions.includes(request.resolution) &&
    request.seconds >= spec.minSeconds &&
    request.seconds <= spec.maxSeconds &&
    (request.ratio === undefined || spec.ratios.includes(request.ratio)) &&
    (request.imageUrl === undefined || spec.imageInput === 'first_frame') &&
    request.prompt.length <= maxPromptChars
  );
}

/**
 * Video jobs from creation to billing: the provider task is created at once, a background poller
 * (and any GET of a stale job) moves the record forward, and a completed job is billed exactly
 * once (the job id is the spend event's idempotency id, and the record's billing state moves from
 * pending only once).
 */
export class VideoJobs {
  #timer: NodeJS.Timeout | undefined;
  #polling = false;

  constructor(private readonly deps: VideoJobsDeps) {}

  #provider(deployment: DeploymentConfig): VideoProvider {
    const provider = this.deps.providers.get(deployment.provider);
    if (!provider) throw new GatewayError('internal_error', { cause: new Error(`no video provider "${deployment.provider}"`) });
    return provider;
  }

  /** The served deployments' providers of a group. */
  #providersOf(group: VideoGroupConfig): VideoProvider[] {
    return this.deps.router.served(group).map((d) => this.#provider(d));
  }

  /** The group's strictest prompt limit: any of its deployments may get the job. */
  #strictest(group: VideoGroupConfig): VideoProvider | undefined {
    return this.#providersOf(group).reduce<VideoProvider | undefined>(
      (a, p) => (a && a.maxPromptChars <= p.maxPromptChars ? a : p),
      undefined,
    );
  }

  /**
   * Creates the provider task through the router: weighted among the group's deployments not
   * cooling down, `router.retries` more attempts after a retryable failure, then the fallback
   * groups that can render the same request. The job stays on the deployment that accepted it.
   */
  async create(keyId: string, model: string, groupId: string, input: CreateInput, context: HoldContext = {}): Promise<TaskRecord> {
    const group = this.deps.groups.get(groupId);
    if (!group)
      throw new GatewayError('invalid_request', { param: 'model', message: `'${model}' is not a video model this deployment serves.` });
    const strictest = this.#strictest(group);
    if (!strictest) throw new GatewayError('no_healthy_upstream');
    const request = validateCreate(input, group, strictest);
    const accepts = (candidate: VideoGroupConfig): boolean => {
      const limit = this.#strictest(candidate)?.maxPromptChars;
      return limit !== undefined && fits(candidate, request, limit);
    };
    const jobId = newJobId();
    // The hold is the most any group that may serve could cost (the requested group and the
    // fallbacks that fit, on any of their providers' pixel tables): whichever serves, the hold
    // covers it, and completion settles it to the serving group's real price.
    let estimate = 0;
    for (const candidate of this.deps.router.candidates(group, accepts)) {
      for (const provider of this.#providersOf(candidate)) {
        estimate = Math.max(
          estimate,
          estimatedCost(candidate, request.resolution, request.seconds, provider.pixels(request.resolution, request.ratio)) ?? 0,
        );
      }
    }
    await this.deps.budget.reserve({ keyId, group: group.id, amountNanoUsd: estimate, reservationId: jobId }, context);
    // A caller that leaves (or overruns its deadline) ends the provider's create with it: no task
    // nobody will learn of, and the hold goes back below.
    const http = context.signal ? this.deps.http.withSignal(context.signal) : this.deps.http;
    try {
      let attempts = 0;
      const { attempt, result: taskId } = await this.deps.router.route(
        group,
        (a) => this.#provider(a.deployment).create(http, a.deployment, request),
        {
          accepts,
          onOutcome: () => {
            attempts += 1;
          },
          // One line per failed attempt, at its size, as chat logs them.
          onFailure: (a, error) =>
            this.deps.logger.warn(
              {
                ...fieldsOf(context.scope),
                group: a.group.id,
                deployment: `${a.deployment.provider}/${a.deployment.model}`,
                attempt: attempts,
                code: error.code,
                upstreamStatus: error.status,
                reason: failureReason(error),
              },
              'upstream attempt failed',
            ),
        },
      );
      return await this.#record(keyId, model, group, attempt.group, attempt.deployment, taskId, request, jobId, context);
    } catch (error) {
      if (context.signal?.aborted)
        this.deps.logger.info(
          { ...fieldsOf(context.scope), jobId, keyId },
          'video create abandoned: its caller left or its deadline passed',
        );
      await this.deps.budget.release({ keyId, reservationId: jobId }, context).catch(() => undefined);
      throw error;
    }
  }

  async #record(
    keyId: string,
    model: string,
    group: VideoGroupConfig,
    servedBy: VideoGroupConfig,
    deployment: DeploymentConfig,
    taskId: string,
    request: RenderRequest,
    jobId: string,
    context: RequestContext,
  ): Promise<TaskRecord> {
    const now = new Date();
    const record: TaskRecord = {
      _id: jobId,
      key_id: keyId,
      model,
      group: group.id,
      served_group: servedBy.id,
      provider: deployment.provider,
      deployment: servedBy.deployments.indexOf(deployment),
      provider_task_id: taskId,
      status: 'queued',
      progress: 0,
      seconds: request.seconds,
      resolution: request.resolution,
      ratio: request.ratio ?? null,
      size: null,
      error_message: null,
      total_tokens: null,
      video_url: null,
      video_url_at: null,
      video_url_downloads: 0,
      created_at: now,
      updated_at: now,
      completed_at: null,
      billing: 'pending',
      cost_nano_usd: null,
      next_poll_at: new Date(now.getTime() + this.deps.config.pollIntervalMs),
      poll_failures: 0,
      lease_until: null,
    };
    await this.deps.tasks.insert(record);
    videoJobSeries(group.id, 'queued').inc();
    this.deps.logger.info(
      { ...fieldsOf(context.scope), jobId: record._id, keyId, group: group.id, servedBy: servedBy.id, status: record.status },
      'video job created',
    );
    return record;
  }

  /** The group whose deployment accepted the job (records older than fallbacks name only `group`). */
  #servedGroup(task: TaskRecord): VideoGroupConfig | undefined {
    return this.deps.groups.get(task.served_group ?? task.group);
  }

  /**
   * The caller's job, refreshed from the provider first when it is unfinished and stale. A refresh
   * still running near `answerBy` (the call's deadline, Unix ms) is not waited for: the stored
   * record answers, and the refresh goes on to update it (bounded by the provider timeout).
   */
  async get(keyId: string, id: string, answerBy = Number.POSITIVE_INFINITY): Promise<TaskRecord> {
    const task = await this.deps.tasks.findOwned(id, keyId);
    if (!task) throw new GatewayError('video_not_found');
    const stale = Date.now() - task.updated_at.getTime() >= this.deps.config.pollIntervalMs;
    if (TERMINAL.has(task.status) || !stale) return task;
    const leased = await this.deps.tasks.lease(task._id, LEASE_MS);
    if (!leased) return task;
    const refresh = this.#refresh(leased).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, jobId: task._id }, 'video refresh failed');
      return null;
    });
    if (!Number.isFinite(answerBy)) return (await refresh) ?? task;
    const refreshed = await within(refresh, answerBy - ANSWER_MARGIN_MS - Date.now());
    if (refreshed === undefined) this.deps.logger.info({ jobId: task._id }, 'video refresh overran the call; answered from the record');
    return refreshed ?? task;
  }

  /** The caller's jobs, a page at a time (see TaskRepository.listOwned). */
  async list(keyId: string, pageSize: number, afterId: string, ascending: boolean): Promise<{ jobs: TaskRecord[]; hasMore: boolean }> {
    const limit = Math.min(pageSize > 0 ? pageSize : 20, 100);
    const after = afterId ? await this.deps.tasks.findOwned(afterId, keyId) : null;
    if (afterId && !after)
      throw new GatewayError('invalid_request', { param: 'after', message: "Invalid value for 'after': no job of yours with that id." });
    const rows = await this.deps.tasks.listOwned(keyId, limit, after, ascending);
    return { jobs: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /** Every key's jobs for the admin API, newest first, with counts per status of the same scope. */
  async listAll(query: { status?: JobStatus; keyId?: string; pageSize: number; afterId: string }): Promise<{
    jobs: TaskRecord[];
    hasMore: boolean;
    counts: Record<JobStatus, number>;
  }> {
    const limit = Math.min(query.pageSize > 0 ? query.pageSize : 100, 1000);
    const after = query.afterId ? await this.deps.tasks.findAlive(query.afterId) : null;
    if (query.afterId && !after)
      throw new GatewayError('invalid_request', { param: 'after', message: "Invalid value for 'after': no job with that id." });
    const [rows, ...counts] = await Promise.all([
      this.deps.tasks.listAll({ ...query, limit, after }),
      ...JOB_STATUSES.map((status) => this.deps.tasks.count(status, query.keyId)),
    ]);
    return {
      jobs: rows.slice(0, limit),
      hasMore: rows.length > limit,
      counts: Object.fromEntries(JOB_STATUSES.map((status, i) => [status, counts[i] ?? 0])) as Record<JobStatus, number>,
    };
  }

  /**
   * Removes the caller's job. A finished one goes at once (a completed one once it is billed);
   * an unfinished one is cancelled upstream first where its provider can, its held price given
   * back, and is never billed; where the provider cannot cancel, 501 not_implemented.
   */
  async delete(keyId: string, id: string): Promise<void> {
    const task = await this.deps.tasks.findOwned(id, keyId);
    if (!task) throw new GatewayError('video_not_found');
    if (task.status === 'completed' && task.billing === 'pending') {
      throw new GatewayError('video_not_ready', { message: 'The video job is being billed; delete it again in a few seconds.' });
    }
    if (!TERMINAL.has(task.status)) {
      const group = this.#servedGroup(task);
      const deployment = group?.deployments[task.deployment];
      const provider = deployment ? this.#provider(deployment) : undefined;
      const notCancellable = (why: string) =>
        new GatewayError('not_implemented', { message: `This video job is ${task.status} and ${why}; delete it once it has finished.` });
      if (!deployment || !provider?.cancel) throw notCancellable('its provider cannot cancel a job');
      try {
        await provider.cancel(this.deps.http, deployment, task.provider_task_id);
      } catch (error) {
        if (error instanceof UpstreamFailure && error.status !== undefined && error.status < 500)
          throw notCancellable('can no longer be cancelled upstream');
        throw error instanceof UpstreamFailure ? error.toGatewayError() : error;
      }
      // Cancelled upstream before it ran: free, its held price back.
      const freed = await this.deps.tasks.settleBilling(task._id, 'free', null);
      if (freed) await this.deps.budget.release({ keyId, reservationId: task._id });
      videoJobSeries(task.group, 'cancelled').inc();
    }
    await this.deps.tasks.remove(task._id);
    this.deps.logger.info({ jobId: task._id, status: task.status }, 'video job deleted');
  }

  /** Where the finished clip can be fetched: the provider's signed address, fresh when needed. */
  async resolveContent(keyId: string, id: string, refresh: boolean, signal?: AbortSignal): Promise<{ url: string }> {
    const task = await this.deps.tasks.findOwned(id, keyId);
    if (!task) throw new GatewayError('video_not_found');
    if (task.status !== 'completed') {
      throw new GatewayError(
        'video_not_ready',
        task.status === 'failed' || task.status === 'cancelled'
          ? { message: `The video job ${task.status === 'failed' ? 'failed' : 'was cancelled'}; there is no clip.` }
          : {},
      );
    }
    const old =
      !task.video_url_at || Date.now() - task.video_url_at.getTime() > URL_MAX_AGE_MS || task.video_url_downloads >= URL_MAX_DOWNLOADS;
    let url = task.video_url;
    if (!url || refresh || old) {
      // Bounded by the call: a caller that leaves or overruns ends the provider's query too.
      const fresh = await this.#query(task, signal ? this.deps.http.withSignal(signal) : this.deps.http);
      if (!fresh.videoUrl) throw new GatewayError('upstream_error', { message: 'The provider gave no download address for the clip.' });
      url = fresh.videoUrl;
      await this.deps.tasks.update(task._id, { video_url: url, video_url_at: new Date(), video_url_downloads: 0 });
    }
    await this.deps.tasks.countDownload(task._id);
    return { url };
  }

  async #query(task: TaskRecord, http: ProviderHttp = this.deps.http): Promise<ProviderTask> {
    const group = this.#servedGroup(task);
    const deployment = group?.deployments[task.deployment];
    if (!group || !deployment)
      throw new GatewayError('internal_error', { cause: new Error(`job ${task._id} names a deployment no longer configured`) });
    try {
      return await this.#provider(deployment).query(http, deployment, task.provider_task_id);
    } catch (error) {
      throw error instanceof UpstreamFailure ? error.toGatewayError() : error;
    }
  }

  /** Asks the provider about a leased job, stores what changed, bills or frees it when it ends. */
  async #refresh(task: TaskRecord): Promise<TaskRecord | null> {
    const now = new Date();
    let remote: ProviderTask;
    try {
      remote = await this.#query(task);
    } catch (error) {
      const failures = task.poll_failures + 1;
      const backoff = Math.min(this.deps.config.pollIntervalMs * 2 ** failures, MAX_BACKOFF_MS);
      this.deps.logger.warn({ jobId: task._id, failures, code: (error as GatewayError).code }, 'video poll failed; backing off');
      return this.deps.tasks.update(task._id, {
        poll_failures: failures,
        next_poll_at: new Date(now.getTime() + backoff),
        lease_until: null,
      });
    }
    // Billed at the price of the group that served the job.
    const group = this.#servedGroup(task);
    const fields: Partial<TaskRecord> = {
      status: remote.status,
      updated_at: now,
      poll_failures: 0,
      lease_until: null,
      next_poll_at: new Date(now.getTime() + this.deps.config.pollIntervalMs),
    };
    if (remote.status === 'in_progress') fields.progress = Math.min(99, Math.max(task.progress, remote.progress ?? task.progress));
    if (remote.status === 'completed') {
      const pixels = remote.width && remote.height ? [remote.width, remote.height] : this.#pixels(task);
      fields.progress = 100;
      fields.completed_at = task.completed_at ?? now;
      fields.size = pixels ? `${pixels[0]}x${pixels[1]}` : null;
      fields.total_tokens = remote.totalTokens ?? null;
      if (remote.videoUrl && remote.videoUrl !== task.video_url) {
        fields.video_url = remote.videoUrl;
        fields.video_url_at = now;
        fields.video_url_downloads = 0;
      }
    }
    if (remote.status === 'failed') {
      fields.error_message = remote.errorMessage ?? 'The video could not be generated.';
      fields.error_code = remote.errorCode ?? 'generation_failed';
    }
    if (TERMINAL.has(remote.status)) fields.next_poll_at = null;
    const updated = await this.deps.tasks.update(task._id, fields);
    // Only the lease holder gets here, so each status a job enters is counted (and logged) once.
    const moved = updated !== null && updated.status !== task.status;
    if (moved) videoJobSeries(updated.group, updated.status).inc();
    if (moved && updated.status !== 'completed') this.#logState(updated, task.status);
    if (!updated || !group) return updated;
    if (updated.status === 'completed' && updated.billing === 'pending') {
      const billed = await this.#bill(updated, group, remote);
      if (moved) this.#logState(billed, task.status);
      return billed;
    }
    if (moved && updated.status === 'completed') this.#logState(updated, task.status);
    if ((updated.status === 'failed' || updated.status === 'cancelled') && updated.billing === 'pending') {
      // Failures, moderation rejections and cancellations are free: the held price goes back.
      const freed = await this.deps.tasks.settleBilling(updated._id, 'free', null);
      if (freed)
        await this.deps.budget
          .release({ keyId: updated.key_id, reservationId: updated._id })
          .catch((error: unknown) =>
            this.deps.logger.warn({ err: error, jobId: updated._id }, "could not release a job's reservation; the sweeper will"),
          );
      return freed ?? updated;
    }
    return updated;
  }

  /** One info line per status a job enters: what an operator follows a job by. */
  #logState(task: TaskRecord, from: string): void {
    this.deps.logger.info(
      {
        jobId: task._id,
        keyId: task.key_id,
        group: task.group,
        servedBy: task.served_group ?? task.group,
        from,
        status: task.status,
        progress: task.progress,
        ...(task.status === 'completed' ? { size: task.size, tokens: task.total_tokens ?? undefined } : {}),
        ...(task.billing === 'billed' && task.cost_nano_usd !== null ? { costUsd: task.cost_nano_usd / 1e9 } : {}),
        ...(task.status === 'failed' ? { errorCode: task.error_code } : {}),
      },
      `video job ${task.status}`,
    );
  }

  #pixels(task: TaskRecord): [number, number] | undefined {
    const deployment = this.#servedGroup(task)?.deployments[task.deployment];
    return deployment ? this.deps.providers.get(deployment.provider)?.pixels(task.resolution, task.ratio ?? undefined) : undefined;
  }

  async #bill(task: TaskRecord, group: VideoGroupConfig, remote: ProviderTask): Promise<TaskRecord> {
    let cost = jobCost(group, task.resolution, task.seconds, remote);
    if (cost === undefined) {
      cost = estimatedCost(group, task.resolution, task.seconds, this.#pixels(task)) ?? 0;
      this.deps.logger.error(
        { jobId: task._id, group: group.id },
        'completed token-billed job without a token count; billed by the formula',
      );
    }
    const event: SpendEvent = {
      id: task._id,
      kind: 'video',
      key_id: task.key_id,
      // Counted under the group the caller asked for, as chat does; priced as the serving group.
      group: task.group,
      cost_nano_usd: cost,
      occurred_at: Date.now(),
      usage: { seconds: task.seconds, ...(remote.totalTokens === undefined ? {} : { total_tokens: remote.totalTokens }) },
      reservation_id: task._id,
    };
    // Published before the record says "billed": a crash in between republishes the same id,
    // which the ledger drops. The reverse order could lose the money.
    await this.deps.bus.publish(spendSubject('video'), event.id, event, encodeSpendEvent);
    return (await this.deps.tasks.settleBilling(task._id, 'billed', cost)) ?? task;
  }

  /** Starts the background poller: unfinished jobs move forward even if nobody asks. */
  start(): void {
    const every = Math.max(50, Math.floor(this.deps.config.pollIntervalMs / 2));
    this.#timer = setInterval(() => void this.pollOnce(), every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
  }

  /** One round of the poller; returns how many jobs it refreshed. */
  async pollOnce(): Promise<number> {
    if (this.#polling) return 0;
    this.#polling = true;
    try {
      const due = await this.deps.tasks.due(this.deps.config.maxConcurrentPolls);
      const results = await Promise.allSettled(
        due.map(async (task) => {
          const leased = await this.deps.tasks.lease(task._id, LEASE_MS);
          if (leased) await this.#refresh(leased);
          return leased !== null;
        }),
      );
      return results.filter((r) => r.status === 'fulfilled' && r.value).length;
    } catch (error) {
      this.deps.logger.error({ err: error }, 'video poller round failed');
      return 0;
    } finally {
      this.#polling = false;
    }
  }
}
