import { budgetPeriodFromWire, videoJobStatus } from '@gateway/contracts';
import { nanosToUsd } from '@gateway/pricing';
import type {
  AuditEvent__Output,
  Balance__Output,
  DailySpend__Output,
  DeploymentHealth__Output,
  Key__Output,
  Team__Output,
  TopSpender__Output,
  VideoJob__Output,
} from '@gateway/protos';
import type { TrafficSummary } from '@gateway/telemetry';

// The admin API's answers (docs/admin-api.md): the JSON shapes of what accounting, the video
// service and the edge's own metrics return.

const seconds = (ms: number): number | null => (ms ? Math.floor(ms / 1000) : null);

const DEPLOYMENT_STATES: Readonly<Record<string, string>> = {
  DEPLOYMENT_STATE_COOLING_DOWN: 'cooling_down',
  DEPLOYMENT_STATE_RATE_LIMITED: 'rate_limited',
};

export function deploymentView(kind: 'chat' | 'video', deployment: DeploymentHealth__Output) {
  return {
    kind,
    group: deployment.group,
    deployment: `${deployment.provider}/${deployment.model}#${deployment.index}`,
    index: deployment.index,
    provider: deployment.provider,
    model: deployment.model,
    state: DEPLOYMENT_STATES[deployment.state] ?? 'healthy',
    consecutive_failures: deployment.consecutive_failures,
    until: seconds(deployment.until_ms),
    errors_5m: deployment.recent_errors,
    last_error: deployment.last_error_kind
      ? { kind: deployment.last_error_kind, at: Math.floor(deployment.last_error_at_ms / 1000) }
      : null,
  };
}

function balanceView(balance: Balance__Output | null) {
  return {
    period_start: seconds(balance?.period_start_ms ?? 0),
    resets_at: seconds(balance?.resets_at_ms ?? 0),
    spent_usd: nanosToUsd(balance?.spent_nano_usd ?? 0),
    lifetime_spent_usd: nanosToUsd(balance?.lifetime_spent_nano_usd ?? 0),
    reserved_usd: nanosToUsd(balance?.reserved_nano_usd ?? 0),
  };
}

export function adminKeyView(key: Key__Output) {
  const balance = balanceView(key.balance);
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    hint: key.hint,
    models: key.models,
    team_id: key.team_id || null,
    metadata: key.metadata,
    budget_usd: nanosToUsd(key.budget_nano_usd),
    budget_period: budgetPeriodFromWire(key.budget_period),
    period_start: balance.period_start,
    resets_at: balance.resets_at,
    spent_usd: balance.spent_usd,
    lifetime_spent_usd: balance.lifetime_spent_usd,
    reserved_usd: balance.reserved_usd,
    rpm: key.rpm || null,
    tpm: key.tpm || null,
    created_at: Math.floor(key.created_at_ms / 1000),
    expires_at: seconds(key.expires_at_ms),
    revoked_at: seconds(key.revoked_at_ms),
    rotated_at: seconds(key.rotated_at_ms),
    previous_secret_expires_at: seconds(key.previous_secret_expires_at_ms),
    store_responses: !key.response_storage_off,
  };
}

export function adminTeamView(team: Team__Output) {
  const balance = balanceView(team.balance);
  return {
    id: team.id,
    object: 'team',
    name: team.name,
    models: team.models,
    metadata: team.metadata,
    budget_usd: team.has_budget ? nanosToUsd(team.budget_nano_usd) : null,
    budget_period: budgetPeriodFromWire(team.budget_period),
    period_start: balance.period_start,
    resets_at: balance.resets_at,
    spent_usd: balance.spent_usd,
    lifetime_spent_usd: balance.lifetime_spent_usd,
    reserved_usd: balance.reserved_usd,
    rpm: team.rpm || null,
    tpm: team.tpm || null,
    created_at: Math.floor(team.created_at_ms / 1000),
  };
}

/** One day's spend of one group. */
export function dailySpendView(day: DailySpend__Output) {
  return {
    date: day.day,
    group: day.group,
    spend_usd: nanosToUsd(day.spent_nano_usd),
    requests: day.requests,
    cached_tokens: day.cached_tokens,
    cache_saved_usd: nanosToUsd(day.cache_saved_nano_usd),
  };
}

export function topSpenderView(spender: TopSpender__Output) {
  return { id: spender.id, name: spender.name || null, spend_usd: nanosToUsd(spender.spent_nano_usd), requests: spender.requests };
}

/** A video job of any key, with its owner: unlike the job object of /v1/videos. */
export function adminVideoView({ job, key_id }: { job: VideoJob__Output; key_id: string }) {
  return {
    id: job.id,
    object: 'video',
    key_id,
    model: job.model,
    status: videoJobStatus(job.status),
    progress: job.progress,
    seconds: job.seconds,
    created_at: Math.floor(job.created_at_ms / 1000),
    completed_at: seconds(job.completed_at_ms),
    error: job.error_code ? { code: job.error_code, message: job.error_message } : null,
  };
}

export function auditEventView(event: AuditEvent__Output) {
  return {
    id: event.id,
    object: 'audit_event',
    created_at: Math.floor(event.created_at_ms / 1000),
    action: event.action,
    target_id: event.target_id,
    route: event.route,
    request_id: event.request_id,
    changes: JSON.parse(event.changes_json || '{}') as unknown,
  };
}

/** This month's spend and today's (UTC), in nano-dollars, as the overview sums accounting's days. */
export interface SpendToDate {
  month: number;
  monthSaved: number;
  today: number;
  requestsToday: number;
  cachedToday: number;
}

/** The dashboard's overview: this edge's traffic since it started, and the spend to date. */
export function overviewView(traffic: TrafficSummary, spend: SpendToDate) {
  const ms = (latencySeconds: number | null) => (latencySeconds === null ? null : Math.round(latencySeconds * 1e6) / 1e3);
  return {
    object: 'overview',
    since: Math.floor(performance.timeOrigin / 1000),
    requests: {
      total: traffic.requests,
      errors: traffic.errors,
      client_errors: traffic.clientErrors,
      error_rate: traffic.requests === 0 ? 0 : traffic.errors / traffic.requests,
    },
    latency_ms: { p50: ms(traffic.latency.p50), p95: ms(traffic.latency.p95) },
    overhead_ms: { p50: ms(traffic.overhead.p50), p95: ms(traffic.overhead.p95) },
    spend: {
      today_usd: nanosToUsd(spend.today),
      month_usd: nanosToUsd(spend.month),
      requests_today: spend.requestsToday,
      cached_tokens_today: spend.cachedToday,
      cache_saved_month_usd: nanosToUsd(spend.monthSaved),
    },
  };
}
