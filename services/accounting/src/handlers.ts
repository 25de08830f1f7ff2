import type { Bus } from '@gateway/bus';
import { budgetPeriodFromWire, encodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, keyAllows, type KeyChangedEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { GrpcServer } from '@gateway/grpc';
import { fieldsOf, type Logger } from '@gateway/logging';
import type {
  AccountingServiceHandlers,
  AuditContext__Output,
  KeyPatch__Output,
  ReserveBudgetRequest__Output,
  TeamFields__Output,
} from '@gateway/protos';
import type { DocumentStore } from '@gateway/store';
import { type AuditLog, type AuditSource, diff } from './domain/audit.js';
import { balanceView } from './domain/balances.js';
import type { KeyChanges, KeyRecord, KeyRepository } from './domain/keys.js';
import type { Ledger } from './domain/ledger.js';
import { DAY_MS, utcDay } from './domain/periods.js';
import type { Reservations } from './domain/reservations.js';
import { addFigures, noFigures } from './domain/spend-figures.js';
import type { TeamInput, TeamRecord, TeamRepository } from './domain/teams.js';
import { effectiveModels } from './domain/validation.js';
import { dailySpendMessage, groupUsageMessage, keyAuditView, keyMessage, spendLogMessage, teamAuditView, teamMessage } from './messages.js';
import { SPEND_CONSUMER } from './spend-consumer.js';

// The gRPC handlers of gateway.accounting.v1.AccountingService: requests to domain calls and
// back; app.ts wires them. Admin changes and their audit entries are written together.

export interface HandlerDeps {
  server: GrpcServer;
  store: DocumentStore;
  keys: KeyRepository;
  teams: TeamRepository;
  reservations: Reservations;
  ledger: Ledger;
  audit: AuditLog;
  bus: Bus;
  logger: Logger;
  clock: () => number;
}

export { keyMessage };

const KEY_PATCH_FIELDS = new Set([
  'name',
  'models',
  'budget_nano_usd',
  'rpm',
  'tpm',
  'budget_period',
  'expires_at_ms',
  'team_id',
  'metadata',
]);
const TEAM_FIELDS = new Set(['name', 'models', 'budget_nano_usd', 'budget_period', 'rpm', 'tpm', 'metadata']);

function checkMask(mask: readonly string[], allowed: ReadonlySet<string>): Set<string> {
  for (const field of mask) {
    if (!allowed.has(field)) throw new GatewayError('invalid_request', { param: field, message: `'${field}' cannot be changed` });
  }
  return new Set(mask);
}

function keyChanges(patch: KeyPatch__Output | null, mask: Set<string>): KeyChanges {
  const p = patch ?? ({} as Partial<KeyPatch__Output>);
  const changes: KeyChanges = {};
  if (mask.has('name')) changes.name = p.name ?? '';
  if (mask.has('models')) changes.models = p.models ?? [];
  if (mask.has('budget_nano_usd')) changes.budgetNanoUsd = p.budget_nano_usd ?? 0;
  if (mask.has('rpm')) changes.rpm = p.rpm ?? 0;
  if (mask.has('tpm')) changes.tpm = p.tpm ?? 0;
  if (mask.has('budget_period')) changes.budgetPeriod = budgetPeriodFromWire(p.budget_period ?? '');
  if (mask.has('expires_at_ms')) changes.expiresAtMs = p.expires_at_ms ?? 0;
  if (mask.has('team_id')) changes.teamId = p.team_id || null;
  if (mask.has('metadata')) changes.metadata = p.metadata ?? {};
  return changes;
}

function teamInput(fields: TeamFields__Output | null, mask: Set<string> | 'all'): TeamInput {
  const f = fields ?? ({} as Partial<TeamFields__Output>);
  const has = (field: string) => mask === 'all' || mask.has(field);
  const input: TeamInput = {};
  if (has('name')) input.name = f.name ?? '';
  if (has('models')) input.models = mask === 'all' && (f.models ?? []).length === 0 ? ['*'] : (f.models ?? []);
  if (has('budget_nano_usd')) input.budgetNanoUsd = f.has_budget ? (f.budget_nano_usd ?? 0) : null;
  if (has('budget_period')) input.budgetPeriod = budgetPeriodFromWire(f.budget_period ?? '');
  if (has('rpm')) input.rpm = f.rpm ?? 0;
  if (has('tpm')) input.tpm = f.tpm ?? 0;
  if (has('metadata')) input.metadata = f.metadata ?? {};
  return input;
}

function source(audit: AuditContext__Output | null): AuditSource | null {
  return audit ? { route: audit.route, request_id: audit.request_id } : null;
}

/** The service's handlers, each wrapped by `server.unary` (errors to statuses, scope, metrics). */
export function accountingHandlers(deps: HandlerDeps): AccountingServiceHandlers {
  const { server, store, keys, teams, reservations, ledger, audit, bus, logger, clock } = deps;
  const { book } = reservations;
  const announce = (event: KeyChangedEvent) =>
    bus.broadcast(KEYS_CHANGED_SUBJECT, encodeKeyChangedEvent(event)).catch((error: unknown) => {
      logger.warn(
        { err: error, keyId: event.key_id, teamId: event.team_id },
        'could not announce a key change; edges fall back to their cache expiry',
      );
    });

  /** The key's team when it has one that is not deleted. */
  const liveTeam = async (key: KeyRecord): Promise<TeamRecord | null> => {
    const team = await book.teamOf(key);
    return team && team.deleted_at === null ? team : null;
  };

  /** A team a key may be put in: 422 naming team_id when there is none by that id. */
  const checkTeam = async (teamId: string | null | undefined): Promise<void> => {
    if (!teamId) return;
    await teams.get(teamId).catch((error: unknown) => {
      if (error instanceof GatewayError && error.code === 'team_not_found') {
        throw new GatewayError('invalid_request', { param: 'team_id', message: `no team with id "${teamId}"` });
      }
      throw error;
    });
  };

  /** The key ready for a call on `group`: usable, allowed by itself and its team. */
  const callable = async (keyId: string, group: string): Promise<{ key: KeyRecord; team: TeamRecord | null }> => {
    const key = await keys.get(keyId);
    keys.usable(key);
    const team = await liveTeam(key);
    if (!keyAllows({ models: effectiveModels(key.models, team?.models) }, group)) throw new GatewayError('model_not_allowed');
    return { key, team };
  };

  /**
   * In one process spend events are applied in batches a few milliseconds after their calls
   * (docs/architecture.md, "Budget authority"): readers of spend wait until this process's
   * consumer has applied what was published before them, so a caller sees its call's spend
   * right after the response. Over NATS it resolves at once.
   */
  const spendApplied = () => bus.caughtUp(SPEND_CONSUMER);

  /**
   * A budget refused while spend waits to be applied may be refused for worst cases that calls
   * no longer hold: the refusal stands only once that spend is applied (then `retry` runs once).
   */
  const refusedAfterSpendApplied = async <R>(error: unknown, retry: () => Promise<R>): Promise<R> => {
    if (!(error instanceof GatewayError) || error.code !== 'budget_exceeded') throw error;
    await spendApplied();
    return retry();
  };

  const reserve = async (request: ReserveBudgetRequest__Output): Promise<number> => {
    const { key, team } = await callable(request.key_id, request.group);
    // A call's tokens count once its spend is applied: tpm limits are judged on all of them.
    if (key.tpm || team?.tpm) await spendApplied();
    await reservations.countRequest(key, team);
    const hold = (k: KeyRecord, t: TeamRecord | null) =>
      reservations.reserve(k, t, request.group, request.amount_nano_usd, request.reservation_id);
    return hold(key, team).catch((error: unknown) =>
      refusedAfterSpendApplied(error, async () => {
        const current = await callable(request.key_id, request.group);
        return hold(current.key, current.team);
      }),
    );
  };

  return {
    AuthenticateKey: server.unary('AuthenticateKey', async (request) => {
      const { key, validUntilMs } = await keys.authenticate(request.key_hash);
      const team = await liveTeam(key);
      const message = keyMessage(key, clock());
      return {
        key: message,
        spent_nano_usd: message.balance?.spent_nano_usd ?? 0,
        allowed_models: effectiveModels(key.models, team?.models),
        valid_until_ms: validUntilMs ?? 0,
      };
    }),
    CreateKey: server.unary('CreateKey', async (request, call) => {
      await checkTeam(request.team_id);
      const { key, secret } = await store.atomically(async () => {
        const created = await keys.create({
          name: request.name,
          models: request.models,
          budgetNanoUsd: request.budget_nano_usd,
          rpm: request.rpm,
          tpm: request.tpm,
          budgetPeriod: budgetPeriodFromWire(request.budget_period),
          expiresAtMs: request.expires_at_ms,
          teamId: request.team_id || null,
          metadata: request.metadata,
        });
        await audit.record('key.created', created.key._id, source(request.audit), diff({}, keyAuditView(created.key)));
        return created;
      });
      logger.info({ ...fieldsOf(call.scope), keyId: key._id, name: key.name }, 'key created');
      await announce({ key_id: key._id, change: 'created' });
      return { key: keyMessage(key, clock()), secret };
    }),
    ListKeys: server.unary('ListKeys', async (request) => {
      await spendApplied();
      const page = await keys.list(request.page_size, request.page_token);
      const now = clock();
      return { keys: page.keys.map((k) => keyMessage(k, now)), next_page_token: page.nextPageToken };
    }),
    GetKey: server.unary('GetKey', async (request) => {
      await spendApplied();
      const key = await keys.get(request.key_id);
      const message = keyMessage(key, clock());
      return { key: message, spent_nano_usd: message.balance?.spent_nano_usd ?? 0 };
    }),
    UpdateKey: server.unary('UpdateKey', async (request, call) => {
      const changes = keyChanges(request.patch, checkMask(request.update_mask, KEY_PATCH_FIELDS));
      if (changes.teamId !== undefined) await checkTeam(changes.teamId);
      await spendApplied();
      const { after, changed } = await store.atomically(async () => {
        const { before, after } = await keys.update(request.key_id, changes, (start) =>
          ledger.spentSince({ keyId: request.key_id }, start),
        );
        const changed = diff(keyAuditView(before), keyAuditView(after));
        if (Object.keys(changed).length > 0) await audit.record('key.updated', after._id, source(request.audit), changed);
        return { after, changed };
      });
      if (Object.keys(changed).length > 0) {
        logger.info({ ...fieldsOf(call.scope), keyId: after._id, fields: Object.keys(changed) }, 'key updated');
        await announce({ key_id: after._id, change: 'updated' });
      }
      return { key: keyMessage(after, clock()) };
    }),
    RotateKey: server.unary('RotateKey', async (request, call) => {
      const { after, secret } = await store.atomically(async () => {
        const rotated = await keys.rotate(request.key_id, request.grace_seconds);
        await audit.record('key.rotated', rotated.after._id, source(request.audit), {
          hint: { from: rotated.before.hint, to: rotated.after.hint },
          grace_seconds: { from: null, to: request.grace_seconds },
        });
        return rotated;
      });
      logger.info({ ...fieldsOf(call.scope), keyId: after._id, graceSeconds: request.grace_seconds }, 'key rotated');
      await announce({ key_id: after._id, change: 'updated' });
      return { key: keyMessage(after, clock()), secret };
    }),
    RevokeKey: server.unary('RevokeKey', async (request, call) => {
      const { key, changed } = await store.atomically(async () => {
        const revoked = await keys.revoke(request.key_id);
        if (revoked.changed) {
          await audit.record('key.revoked', revoked.key._id, source(request.audit), {
            revoked_at: { from: null, to: Math.floor((revoked.key.revoked_at?.getTime() ?? 0) / 1000) },
          });
        }
        return revoked;
      });
      if (changed) {
        logger.info({ ...fieldsOf(call.scope), keyId: key._id }, 'key revoked');
        await announce({ key_id: key._id, change: 'revoked' });
      }
      return { key: keyMessage(key, clock()) };
    }),
    GetUsage: server.unary('GetUsage', async (request) => {
      await spendApplied();
      const key = await keys.get(request.key_id);
      const team = await liveTeam(key);
      const now = clock();
      const view = balanceView(key, now);
      // Periodic budgets: the groups' spend in this period (periods start at UTC midnights, so the daily spend sums it exactly).
      const groups = key.budget_period ? await ledger.groupsSince(key._id, view.periodStartMs) : await ledger.usageOf(key._id);
      const daily = await ledger.recentDays(key._id, 30);
      const period = groups.reduce((sum, g) => addFigures(sum, g), noFigures());
      return {
        key: keyMessage(key, now),
        spent_nano_usd: view.spent,
        reserved_nano_usd: view.reserved,
        groups: groups.map(groupUsageMessage),
        period_start_ms: view.periodStartMs,
        team: team ? teamMessage(team, now) : null,
        daily: daily.map((d) => dailySpendMessage({ ...d, group: '' })),
        cached_tokens: period.cached_tokens,
        cache_saved_nano_usd: period.cache_saved_nano_usd,
      };
    }),
    ReserveBudget: server.unary('ReserveBudget', async (request) => ({ available_nano_usd: await reserve(request) })),
    ReserveBudgets: server.unary('ReserveBudgets', async (request) => {
      const results = [];
      for (const item of request.reservations) {
        try {
          results.push({ available_nano_usd: await reserve(item), error_code: '', error_message: '', retry_after_seconds: 0 });
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          results.push({
            available_nano_usd: 0,
            error_code: error.code,
            error_message: error.message,
            retry_after_seconds: error.retryAfterSeconds ?? 0,
          });
        }
      }
      return { results };
    }),
    ReleaseReservation: server.unary('ReleaseReservation', async (request) => {
      await book.release(request.reservation_id, request.amount_nano_usd > 0 ? request.amount_nano_usd : undefined, request.key_id);
      return {};
    }),
    LeaseBudget: server.unary('LeaseBudget', async (request) => {
      const { key, team } = await callable(request.key_id, request.group);
      const previous = request.return_lease_id ? { leaseId: request.return_lease_id, unused: request.return_nano_usd } : undefined;
      const lease = (k: KeyRecord, t: TeamRecord | null) =>
        reservations.lease(k, t, request.group, request.lease_id, request.min_nano_usd, request.want_nano_usd, previous);
      const { granted, perCall } = await lease(key, team).catch((error: unknown) =>
        refusedAfterSpendApplied(error, async () => {
          const current = await callable(request.key_id, request.group);
          return lease(current.key, current.team);
        }),
      );
      return { granted_nano_usd: granted, per_call: perCall };
    }),
    CreateTeam: server.unary('CreateTeam', async (request, call) => {
      const team = await store.atomically(async () => {
        const created = await teams.create(teamInput(request.team, 'all'));
        await audit.record('team.created', created._id, source(request.audit), diff({}, teamAuditView(created)));
        return created;
      });
      logger.info({ ...fieldsOf(call.scope), teamId: team._id, name: team.name }, 'team created');
      return { team: teamMessage(team, clock()) };
    }),
    ListTeams: server.unary('ListTeams', async (request) => {
      await spendApplied();
      const page = await teams.list(request.page_size, request.page_token);
      const now = clock();
      return { teams: page.teams.map((t) => teamMessage(t, now)), next_page_token: page.nextPageToken };
    }),
    GetTeam: server.unary('GetTeam', async (request) => {
      await spendApplied();
      return { team: teamMessage(await teams.get(request.team_id), clock()) };
    }),
    UpdateTeam: server.unary('UpdateTeam', async (request, call) => {
      const input = teamInput(request.patch, checkMask(request.update_mask, TEAM_FIELDS));
      const { after, changed } = await store.atomically(async () => {
        const { before, after } = await teams.update(request.team_id, input, (start) =>
          ledger.spentSince({ teamId: request.team_id }, start),
        );
        const changed = diff(teamAuditView(before), teamAuditView(after));
        if (Object.keys(changed).length > 0) await audit.record('team.updated', after._id, source(request.audit), changed);
        return { after, changed };
      });
      if (Object.keys(changed).length > 0) {
        logger.info({ ...fieldsOf(call.scope), teamId: after._id, fields: Object.keys(changed) }, 'team updated');
        // Its keys' allowed models may have changed: edges drop them.
        await announce({ key_id: '', change: 'updated', team_id: after._id });
      }
      return { team: teamMessage(after, clock()) };
    }),
    DeleteTeam: server.unary('DeleteTeam', async (request, call) => {
      await store.atomically(async () => {
        const team = await teams.get(request.team_id);
        if ((await keys.activeInTeam(team._id, 1)).length > 0) throw new GatewayError('team_not_empty');
        await teams.delete(team._id);
        await audit.record('team.deleted', team._id, source(request.audit), diff(teamAuditView(team), {}));
      });
      logger.info({ ...fieldsOf(call.scope), teamId: request.team_id }, 'team deleted');
      await announce({ key_id: '', change: 'updated', team_id: request.team_id });
      return {};
    }),
    ListSpendLogs: server.unary('ListSpendLogs', async (request) => {
      await spendApplied();
      const page = await ledger.spendLogs({
        keyId: request.key_id,
        teamId: request.team_id,
        group: request.group,
        fromMs: request.from_ms,
        toMs: request.to_ms,
        limit: request.page_size,
        after: request.page_token,
      });
      return { entries: page.entries.map(spendLogMessage), next_page_token: page.next };
    }),
    GetDailySpend: server.unary('GetDailySpend', async (request) => {
      await spendApplied();
      const today = clock();
      const rows = await ledger.dailySpend({
        keyId: request.key_id,
        teamId: request.team_id,
        group: request.group,
        fromDay: request.from_day || utcDay(today - 29 * DAY_MS),
        toDay: request.to_day || utcDay(today),
      });
      return { days: rows.map(dailySpendMessage) };
    }),
    GetTopSpenders: server.unary('GetTopSpenders', async (request) => {
      await spendApplied();
      const today = clock();
      const by = request.by === 'SPENDER_KIND_TEAM' ? 'team' : 'key';
      const top = await ledger.topSpenders(
        by,
        { fromDay: request.from_day || utcDay(today - 29 * DAY_MS), toDay: request.to_day || utcDay(today) },
        request.limit,
      );
      const ids = top.map((row) => row.id);
      const names = new Map<string, string>();
      if (by === 'key') for (const [id, key] of await keys.getMany(ids)) names.set(id, key.name);
      else for (const [id, team] of await teams.findMany(ids)) names.set(id, team.name);
      return { spenders: top.map((row) => ({ ...row, name: names.get(row.id) ?? '' })) };
    }),
    ListAuditEvents: server.unary('ListAuditEvents', async (request) => {
      const page = await audit.list(request.target_id, request.page_size, request.page_token);
      return {
        events: page.events.map((e) => ({
          id: e._id,
          created_at_ms: e.created_at.getTime(),
          action: e.action,
          target_id: e.target_id,
          route: e.route,
          request_id: e.request_id,
          changes_json: JSON.stringify(e.changes),
        })),
        next_page_token: page.next,
      };
    }),
  };
}
