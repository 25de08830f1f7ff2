import { budgetPeriodToWire } from '@gateway/contracts';
import { nanosToUsd } from '@gateway/pricing';
import type { Balance, DailySpend, GroupUsage, Key, SpendLogEntry, Team } from '@gateway/protos';
import { type AccountRecord, balanceView } from './domain/balances.js';
import type { KeyRecord } from './domain/keys.js';
import type { DailyRow, GroupFigures, LedgerEntry } from './domain/ledger.js';
import type { TeamRecord } from './domain/teams.js';

// Stored records as they cross gRPC (never a hash), and as the audit list records them.

export function balanceMessage(account: AccountRecord, now: number): Balance {
  const view = balanceView(account, now);
  return {
    period_start_ms: view.periodStartMs,
    resets_at_ms: view.resetsAtMs ?? 0,
    spent_nano_usd: view.spent,
    lifetime_spent_nano_usd: view.lifetimeSpent,
    reserved_nano_usd: view.reserved,
  };
}

export function keyMessage(key: KeyRecord, now: number): Key {
  const graceEnd = key.previous_secret_expires_at?.getTime() ?? 0;
  return {
    id: key._id,
    name: key.name,
    models: key.models,
    budget_nano_usd: key.budget_nano_usd,
    rpm: key.rpm,
    created_at_ms: key.created_at.getTime(),
    revoked_at_ms: key.revoked_at ? key.revoked_at.getTime() : 0,
    hint: key.hint,
    tpm: key.tpm ?? 0,
    budget_period: budgetPeriodToWire(key.budget_period ?? null),
    team_id: key.team_id ?? '',
    metadata: key.metadata ?? {},
    expires_at_ms: key.expires_at?.getTime() ?? 0,
    rotated_at_ms: key.rotated_at?.getTime() ?? 0,
    previous_secret_expires_at_ms: graceEnd > now ? graceEnd : 0,
    // Keys of earlier releases have no field: storage on.
    response_storage_off: key.response_storage_off ?? false,
    balance: balanceMessage(key, now),
  };
}

export function teamMessage(team: TeamRecord, now: number): Team {
  return {
    id: team._id,
    name: team.name,
    models: team.models,
    has_budget: team.has_budget,
    budget_nano_usd: team.budget_nano_usd,
    budget_period: budgetPeriodToWire(team.budget_period ?? null),
    rpm: team.rpm,
    tpm: team.tpm,
    created_at_ms: team.created_at.getTime(),
    metadata: team.metadata,
    balance: balanceMessage(team, now),
  };
}

export function spendLogMessage(entry: LedgerEntry): SpendLogEntry {
  return {
    id: entry._id,
    key_id: entry.key_id,
    team_id: entry.team_id ?? '',
    group: entry.group,
    kind: entry.kind,
    cost_nano_usd: entry.cost_nano_usd,
    usage: entry.usage ?? {},
    occurred_at_ms: entry.occurred_at.getTime(),
    // Rows of earlier releases have neither: not estimated, nothing saved.
    estimated: entry.estimated ?? false,
    cache_saved_nano_usd: entry.cache_saved_nano_usd ?? 0,
  };
}

export function dailySpendMessage(row: DailyRow): DailySpend {
  return {
    day: row.day,
    group: row.group,
    spent_nano_usd: row.spent_nano_usd,
    requests: row.requests,
    cached_tokens: row.cached_tokens,
    cache_saved_nano_usd: row.cache_saved_nano_usd,
  };
}

export function groupUsageMessage(usage: GroupFigures): GroupUsage {
  return {
    group: usage.group,
    spent_nano_usd: usage.spent_nano_usd,
    requests: usage.requests,
    cached_tokens: usage.cached_tokens,
    cache_saved_nano_usd: usage.cache_saved_nano_usd,
  };
}

const seconds = (date: Date | null | undefined): number | null => (date ? Math.floor(date.getTime() / 1000) : null);

/** A key's settable fields in the admin API's units, for the audit list's before and after. */
export function keyAuditView(key: KeyRecord): Record<string, unknown> {
  return {
    name: key.name,
    models: key.models,
    budget_usd: nanosToUsd(key.budget_nano_usd),
    budget_period: key.budget_period ?? null,
    rpm: key.rpm || null,
    tpm: key.tpm || null,
    expires_at: seconds(key.expires_at),
    team_id: key.team_id ?? null,
    metadata: key.metadata ?? {},
    store_responses: !(key.response_storage_off ?? false),
  };
}

export function teamAuditView(team: TeamRecord): Record<string, unknown> {
  return {
    name: team.name,
    models: team.models,
    budget_usd: team.has_budget ? nanosToUsd(team.budget_nano_usd) : null,
    budget_period: team.budget_period ?? null,
    rpm: team.rpm || null,
    tpm: team.tpm || null,
    metadata: team.metadata,
  };
}
