// The page's one way to the gateway: same-origin fetches with the signed-in credential in the
// Authorization header. The credential lives in sessionStorage (this tab only, gone when it
// closes) and in memory; it is never put in a URL, a cookie or a log line.

export type SessionKind = 'admin' | 'key';

export interface Session {
  kind: SessionKind;
  secret: string;
}

const SESSION_ITEM = 'gateway-dashboard-session';

export function loadSession(): Session | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SESSION_ITEM) ?? 'null') as Partial<Session> | null;
    if (stored && (stored.kind === 'admin' || stored.kind === 'key') && typeof stored.secret === 'string' && stored.secret) {
      return { kind: stored.kind, secret: stored.secret };
    }
  } catch {
    // Storage off or the item unreadable: signed out.
  }
  return undefined;
}

export function saveSession(session: Session | undefined): void {
  try {
    if (session) sessionStorage.setItem(SESSION_ITEM, JSON.stringify(session));
    else sessionStorage.removeItem(SESSION_ITEM);
  } catch {
    // Storage off: the session lasts as long as the page.
  }
}

/** An answer other than 2xx, with the gateway's error code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The credential itself was refused (not a missing permission or a bad field). */
  get signedOut(): boolean {
    return this.status === 401 && (this.code === 'invalid_admin_token' || this.code === 'invalid_api_key');
  }
}

type Query = Record<string, string | number | null | undefined>;

/** A path with its query; empty values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Called when the signed-in credential is refused, so the page can go back to sign-in. */
let onSignedOut: (error: ApiError) => void = () => {};
export function whenSignedOut(handler: (error: ApiError) => void): void {
  onSignedOut = handler;
}

export async function request<T>(
  session: Session,
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.secret}`, accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The gateway could not be reached.');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const failure = new ApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : `http_${response.status}`,
      typeof error?.message === 'string' ? error.message : `The gateway answered ${response.status}.`,
    );
    if (failure.signedOut) onSignedOut(failure);
    throw failure;
  }
  return body as T;
}

export const get = <T>(session: Session, path: string, query?: Query, signal?: AbortSignal) =>
  request<T>(session, 'GET', path, { ...(query ? { query } : {}), ...(signal ? { signal } : {}) });

/** What the page learns before sign-in: whether the admin API is on. */
export async function dashboardConfig(): Promise<{ admin: boolean }> {
  try {
    const response = await fetch('config.json', { cache: 'no-store', credentials: 'omit' });
    if (response.ok) return (await response.json()) as { admin: boolean };
  } catch {
    // Offer both; a refused sign-in says why.
  }
  return { admin: true };
}

// The shapes of what the page reads (docs/admin-api.md and docs/api.md).

export type BudgetPeriod = 'daily' | 'weekly' | 'monthly' | null;

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_after: string | null;
}

export interface KeyObject {
  id: string;
  name: string;
  hint: string;
  models: string[];
  team_id: string | null;
  metadata: Record<string, string>;
  budget_usd: number;
  budget_period: BudgetPeriod;
  period_start: number;
  resets_at: number | null;
  spent_usd: number;
  lifetime_spent_usd: number;
  reserved_usd: number;
  rpm: number | null;
  tpm: number | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_at: number | null;
  previous_secret_expires_at: number | null;
}

/** A created or rotated key: the secret, shown this once. */
export type KeyWithSecret = KeyObject & { key: string };

export interface SpendLogRow {
  id: string;
  key_id: string;
  team_id: string | null;
  group: string;
  kind: string;
  cost_usd: number;
  usage: Record<string, unknown> | null;
  /** Prompt tokens served from the upstream's cache, and what they saved. */
  cached_tokens: number;
  cache_saved_usd: number;
  /** Billed on the gateway's own token count, not the upstream's. */
  estimated: boolean;
  created_at: number;
}

export interface DailySpend {
  date: string;
  group: string;
  spend_usd: number;
  requests: number;
  cached_tokens: number;
  cache_saved_usd: number;
}

export interface TopSpender {
  id: string;
  name: string;
  spend_usd: number;
  requests: number;
}

export interface Overview {
  since: number;
  requests: { total: number; errors: number; client_errors: number; error_rate: number };
  latency_ms: { p50: number | null; p95: number | null };
  overhead_ms: { p50: number | null; p95: number | null };
  spend: { today_usd: number; month_usd: number; requests_today: number; cached_tokens_today: number; cache_saved_month_usd: number };
}

export const VIDEO_STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

export interface VideoJob {
  id: string;
  key_id: string;
  model: string;
  status: VideoStatus;
  progress: number;
  created_at: number;
  completed_at: number | null;
}

export type VideoPage = Page<VideoJob> & { counts: Record<VideoStatus, number> };

export interface Upstream {
  kind: string;
  group: string;
  deployment: string;
  provider: string;
  state: 'healthy' | 'cooling_down' | 'rate_limited';
  consecutive_failures: number;
  until: number | null;
  errors_5m: number;
  last_error: { kind: string; at: number } | null;
}

export interface Budget {
  limit_usd: number;
  period: BudgetPeriod;
  period_start: number;
  resets_at: number | null;
  spent_usd: number;
  lifetime_spent_usd: number;
  reserved_usd: number;
  remaining_usd: number;
}

export interface Usage {
  key: { id: string; name: string; hint: string; created_at: number; expires_at: number | null; team_id: string | null };
  budget: Budget;
  team: {
    id: string;
    name: string;
    budget: Omit<Budget, 'limit_usd' | 'lifetime_spent_usd' | 'remaining_usd'> & { limit_usd: number | null; remaining_usd: number | null };
  } | null;
  models: { allowed: string[]; available: string[] };
  by_model: { model: string; spent_usd: number; requests: number; cached_tokens: number; cache_saved_usd: number }[];
  daily: { date: string; spend_usd: number; requests: number; cached_tokens: number; cache_saved_usd: number }[];
  /** by_model's cached prompt tokens and savings, summed: the current period's. */
  cached_tokens: number;
  cache_saved_usd: number;
  rate_limits: { rpm: number | null; tpm: number | null };
}
