import { randomBytes } from 'node:crypto';
import { GatewayError } from '@gateway/errors';
import type { Collection, Doc, DocumentStore, Filter } from '@gateway/store';

// The audit list: every change made through the admin API, with when, which route, which
// request and what changed (old and new value per field). Secrets and their hashes never
// reach it: callers pass only the fields they changed, and those are never secrets.

export type AuditAction = 'key.created' | 'key.updated' | 'key.rotated' | 'key.revoked' | 'team.created' | 'team.updated' | 'team.deleted';

export interface AuditRecord extends Doc {
  created_at: Date;
  action: AuditAction;
  target_id: string;
  route: string;
  request_id: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** Newest-first order and page cursor: the time zero-padded, then the id. */
  sort_key: string;
}

export interface AuditSource {
  route: string;
  request_id: string;
}

export const AUDIT_COLLECTION = 'accounting_audit';
const MAX_PAGE_SIZE = 1000;

/** The fields that differ between two views of a record, as {from, to}. */
export function diff(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

export class AuditLog {
  private constructor(
    private readonly events: Collection<AuditRecord>,
    private readonly clock: () => number,
  ) {}

  static async open(store: DocumentStore, clock: () => number = Date.now): Promise<AuditLog> {
    const events = await store.collection<AuditRecord>(AUDIT_COLLECTION, [{ fields: ['target_id', 'sort_key'] }, { field: 'sort_key' }]);
    return new AuditLog(events, clock);
  }

  async record(
    action: AuditAction,
    targetId: string,
    source: AuditSource | null | undefined,
    changes: AuditRecord['changes'],
  ): Promise<void> {
    const now = this.clock();
    const id = `audit_${randomBytes(9).toString('base64url')}`;
    await this.events.insertOne({
      _id: id,
      created_at: new Date(now),
      action,
      target_id: targetId,
      route: source?.route ?? '',
      request_id: source?.request_id ?? '',
      changes,
      sort_key: `${String(now).padStart(13, '0')}:${id}`,
    });
  }

  async list(targetId: string, pageSize: number, pageToken: string): Promise<{ events: AuditRecord[]; next: string }> {
    const limit = Math.min(pageSize > 0 ? pageSize : 100, MAX_PAGE_SIZE);
    const filter: Record<string, unknown> = pageToken ? { sort_key: { $lt: decode(pageToken) } } : {};
    if (targetId) filter.target_id = targetId;
    const rows = await this.events.find(filter as Filter, { sort: { sort_key: -1 }, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { events: page, next: rows.length > limit && last ? Buffer.from(last.sort_key, 'utf8').toString('base64url') : '' };
  }
}

function decode(token: string): string {
  const key = /^[A-Za-z0-9_-]{1,400}$/.test(token) ? Buffer.from(token, 'base64url').toString('utf8') : '';
  if (!/^\d{13}:audit_[A-Za-z0-9_-]+$/.test(key)) {
    throw new GatewayError('invalid_request', { param: 'after', message: 'after must be a next_after value from an earlier page' });
  }
  return key;
}
