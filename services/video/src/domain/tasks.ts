import type { Collection, Doc, DocumentStore } from '@gateway/store';
import type { JobStatus } from '../providers/index.js';

export type BillingState = 'pending' | 'billed' | 'free';

/** One video job: who asked, which provider task renders it, and where billing stands. */
export interface TaskRecord extends Doc {
  key_id: string;
  /** As the caller named it. */
  model: string;
  /** The group the caller asked for. */
  group: string;
  /** The group whose deployment accepted the task (a fallback's, when one served); absent in records older than fallbacks. */
  served_group?: string;
  provider: string;
  /** Which deployment of the serving group created the task. */
  deployment: number;
  provider_task_id: string;
  status: JobStatus;
  progress: number;
  seconds: number;
  resolution: string;
  ratio: string | null;
  size: string | null;
  error_message: string | null;
  /** Why it failed (older records: none, read as generation_failed). */
  error_code?: string | null;
  total_tokens: number | null;
  /** The provider's signed address: internal only, never returned or logged. */
  video_url: string | null;
  video_url_at: Date | null;
  video_url_downloads: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  billing: BillingState;
  cost_nano_usd: number | null;
  /** When the poller next asks the provider; null once the job has ended (so the index holds only unfinished jobs). */
  next_poll_at: Date | null;
  poll_failures: number;
  lease_until: Date | null;
}

export const TASKS_COLLECTION = 'video_tasks';

/** Records written by older versions may hold the provider's words; they read back normalized. */
const LEGACY_STATUS: Readonly<Record<string, JobStatus>> = { succeeded: 'completed', running: 'in_progress' };

function normalized(task: TaskRecord | null): TaskRecord | null {
  const status = task ? LEGACY_STATUS[task.status] : undefined;
  return task && status ? { ...task, status } : task;
}

export class TaskRepository {
  private constructor(
    private readonly tasks: Collection<TaskRecord>,
    private readonly retentionSeconds: number,
  ) {}

  static async open(store: DocumentStore, retentionSeconds: number): Promise<TaskRepository> {
    const tasks = await store.collection<TaskRecord>(TASKS_COLLECTION, [
      // Records expire with the store's TTL; reads also check the age, so expiry is exact.
      { field: 'created_at', expireAfterSeconds: retentionSeconds },
      { field: 'next_poll_at' },
      // Finished jobs written before next_poll_at was cleared at the end keep a past date: the
      // poller finds the unfinished ones through the status index instead of scanning those.
      { field: 'status' },
      { field: 'key_id' },
      // The caller's list of jobs, newest first.
      { fields: ['key_id', 'created_at'] },
      // The admin list of every key's jobs by status, newest first.
      { fields: ['status', 'created_at'] },
    ]);
    return new TaskRepository(tasks, retentionSeconds);
  }

  #alive(now: Date) {
    return { created_at: { $gt: new Date(now.getTime() - this.retentionSeconds * 1000) } };
  }

  async insert(task: TaskRecord): Promise<void> {
    await this.tasks.insertOne(task);
  }

  /** The caller's own, unexpired job; another key's job is as absent as an unknown one. */
  async findOwned(id: string, keyId: string, now = new Date()): Promise<TaskRecord | null> {
    return normalized(await this.tasks.findOne({ _id: id, key_id: keyId, ...this.#alive(now) }));
  }

  /** Unfinished jobs due for a poll, oldest due first. */
  async due(limit: number, now = new Date()): Promise<TaskRecord[]> {
    const due = await this.tasks.find(
      { status: { $in: ['queued', 'in_progress', 'running'] }, next_poll_at: { $lte: now }, ...this.#alive(now) },
      { sort: { next_poll_at: 1 }, limit },
    );
    return due.map((task) => normalized(task) as TaskRecord);
  }

  /** Takes the right to poll a job for `ms`; false when another replica holds it. */
  async lease(id: string, ms: number, now = new Date()): Promise<TaskRecord | null> {
    return normalized(
      await this.tasks.findOneAndUpdate(
        { _id: id, $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
        { $set: { lease_until: new Date(now.getTime() + ms) } },
      ),
    );
  }

  async update(id: string, fields: Partial<TaskRecord>): Promise<TaskRecord | null> {
    return normalized(await this.tasks.findOneAndUpdate({ _id: id }, { $set: fields }));
  }

  /** Moves billing from pending to `to` exactly once; null when it had already moved. */
  async settleBilling(id: string, to: Exclude<BillingState, 'pending'>, cost: number | null): Promise<TaskRecord | null> {
    return normalized(await this.tasks.findOneAndUpdate({ _id: id, billing: 'pending' }, { $set: { billing: to, cost_nano_usd: cost } }));
  }

  /**
   * The caller's unexpired jobs in creation order (newest first unless `ascending`), after the
   * job `after` (same-millisecond jobs ordered by id), `limit` + 1 of them so the caller can tell
   * whether more follow.
   */
  async listOwned(keyId: string, limit: number, after: TaskRecord | null, ascending: boolean, now = new Date()): Promise<TaskRecord[]> {
    const beyond = ascending ? '$gt' : '$lt';
    const filter = after
      ? {
          key_id: keyId,
          $and: [
            this.#alive(now),
            { $or: [{ created_at: { [beyond]: after.created_at } }, { created_at: after.created_at, _id: { [beyond]: after._id } }] },
          ],
        }
      : { key_id: keyId, ...this.#alive(now) };
    const order = ascending ? 1 : -1;
    const rows = await this.tasks.find(filter, { sort: { created_at: order, _id: order }, limit: limit + 1 });
    return rows.map((task) => normalized(task) as TaskRecord);
  }

  /** Any key's unexpired job (the admin list's cursor). */
  async findAlive(id: string, now = new Date()): Promise<TaskRecord | null> {
    return normalized(await this.tasks.findOne({ _id: id, ...this.#alive(now) }));
  }

  /**
   * Every key's unexpired jobs (or one key's, or of one status), newest first, after the job
   * `after`; `limit` + 1 of them so the caller can tell whether more follow.
   */
  async listAll(
    query: { status?: JobStatus; keyId?: string; limit: number; after: TaskRecord | null },
    now = new Date(),
  ): Promise<TaskRecord[]> {
    const scope = { ...(query.status ? { status: query.status } : {}), ...(query.keyId ? { key_id: query.keyId } : {}) };
    const { after } = query;
    const filter = after
      ? {
          ...scope,
          $and: [
            this.#alive(now),
            { $or: [{ created_at: { $lt: after.created_at } }, { created_at: after.created_at, _id: { $lt: after._id } }] },
          ],
        }
      : { ...scope, ...this.#alive(now) };
    const rows = await this.tasks.find(filter, { sort: { created_at: -1, _id: -1 }, limit: query.limit + 1 });
    return rows.map((task) => normalized(task) as TaskRecord);
  }

  /** Unexpired jobs of a status (of one key when given). */
  async count(status: JobStatus, keyId?: string, now = new Date()): Promise<number> {
    return this.tasks.countDocuments({ status, ...(keyId ? { key_id: keyId } : {}), ...this.#alive(now) });
  }

  /** Removes a job's record; false when it was not there. */
  async remove(id: string): Promise<boolean> {
    return (await this.tasks.deleteMany({ _id: id })) > 0;
  }

  async countDownload(id: string): Promise<void> {
    await this.tasks.updateOne({ _id: id }, { $inc: { video_url_downloads: 1 } });
  }
}
