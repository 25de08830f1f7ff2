import { budgetPeriodFromWire } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { fieldsOf } from '@gateway/logging';
import type { AccountingServiceHandlers, TeamFields__Output } from '@gateway/protos';
import { diff } from '../domain/audit.js';
import type { TeamInput } from '../domain/teams.js';
import { teamAuditView, teamMessage } from '../messages.js';
import { auditSource, checkMask, type HandlerContext } from './context.js';

// The team RPCs. A team's changes reach its keys' allowed models: they are announced as a
// change of the team's keys, so edges drop them.

type TeamRpc = 'CreateTeam' | 'ListTeams' | 'GetTeam' | 'UpdateTeam' | 'DeleteTeam';

const TEAM_FIELDS = new Set(['name', 'models', 'budget_nano_usd', 'budget_period', 'rpm', 'tpm', 'metadata']);

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

export function teamHandlers(ctx: HandlerContext): Pick<AccountingServiceHandlers, TeamRpc> {
  const { server, teams, clock, spendApplied } = ctx;
  return {
    CreateTeam: createTeam(ctx),
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
    UpdateTeam: updateTeam(ctx),
    DeleteTeam: deleteTeam(ctx),
  };
}

function createTeam({ server, store, teams, audit, logger, clock }: HandlerContext): AccountingServiceHandlers['CreateTeam'] {
  return server.unary('CreateTeam', async (request, call) => {
    const team = await store.atomically(async () => {
      const created = await teams.create(teamInput(request.team, 'all'));
      await audit.record('team.created', created._id, auditSource(request.audit), diff({}, teamAuditView(created)));
      return created;
    });
    logger.info({ ...fieldsOf(call.scope), teamId: team._id, name: team.name }, 'team created');
    return { team: teamMessage(team, clock()) };
  });
}

function updateTeam(ctx: HandlerContext): AccountingServiceHandlers['UpdateTeam'] {
  const { server, store, teams, ledger, audit, logger, clock, announce } = ctx;
  return server.unary('UpdateTeam', async (request, call) => {
    const input = teamInput(request.patch, checkMask(request.update_mask, TEAM_FIELDS));
    const { after, changed } = await store.atomically(async () => {
      const { before, after } = await teams.update(request.team_id, input, (start) =>
        ledger.spentSince({ teamId: request.team_id }, start),
      );
      const changed = diff(teamAuditView(before), teamAuditView(after));
      if (Object.keys(changed).length > 0) await audit.record('team.updated', after._id, auditSource(request.audit), changed);
      return { after, changed };
    });
    if (Object.keys(changed).length > 0) {
      logger.info({ ...fieldsOf(call.scope), teamId: after._id, fields: Object.keys(changed) }, 'team updated');
      // Its keys' allowed models may have changed: edges drop them.
      await announce({ key_id: '', change: 'updated', team_id: after._id });
    }
    return { team: teamMessage(after, clock()) };
  });
}

function deleteTeam({ server, store, keys, teams, audit, logger, announce }: HandlerContext): AccountingServiceHandlers['DeleteTeam'] {
  return server.unary('DeleteTeam', async (request, call) => {
    await store.atomically(async () => {
      const team = await teams.get(request.team_id);
      if ((await keys.activeInTeam(team._id, 1)).length > 0) throw new GatewayError('team_not_empty');
      await teams.delete(team._id);
      await audit.record('team.deleted', team._id, auditSource(request.audit), diff(teamAuditView(team), {}));
    });
    logger.info({ ...fieldsOf(call.scope), teamId: request.team_id }, 'team deleted');
    await announce({ key_id: '', change: 'updated', team_id: request.team_id });
    return {};
  });
}
