import { type BudgetPeriod, budgetPeriodToWire } from '@gateway/contracts';
import { usdToNanos } from '@gateway/pricing';
import type { TeamFields } from '@gateway/protos';
import { page } from '../spend-logs.js';
import type { AdminApp, AdminContext } from './context.js';
import { CreateTeamBody, IdParams, ListQuery, PatchTeamBody } from './schemas.js';
import { adminTeamView } from './views.js';

/** A create or PATCH body's fields as accounting's team fields and the mask naming them. */
function teamFields(body: Record<string, unknown>): { fields: TeamFields; mask: string[] } {
  const fields: TeamFields = {};
  const mask: string[] = [];
  if (body.name !== undefined) {
    fields.name = body.name as string;
    mask.push('name');
  }
  if (body.models !== undefined) {
    fields.models = body.models as string[];
    mask.push('models');
  }
  if (body.budget_usd !== undefined) {
    const budget = body.budget_usd as number | null;
    fields.has_budget = budget !== null;
    fields.budget_nano_usd = budget === null ? 0 : usdToNanos(budget);
    mask.push('budget_nano_usd');
  }
  if (body.budget_period !== undefined) {
    fields.budget_period = budgetPeriodToWire(body.budget_period as BudgetPeriod);
    mask.push('budget_period');
  }
  if (body.rpm !== undefined) {
    fields.rpm = (body.rpm as number | null) ?? 0;
    mask.push('rpm');
  }
  if (body.tpm !== undefined) {
    fields.tpm = (body.tpm as number | null) ?? 0;
    mask.push('tpm');
  }
  if (body.metadata !== undefined) {
    fields.metadata = body.metadata as Record<string, string>;
    mask.push('metadata');
  }
  return { fields, mask };
}

/** /admin/v1/teams: create, list, read, change and delete. */
export function teamRoutes(app: AdminApp, { accounting, call, change }: AdminContext): void {
  app.post('/admin/v1/teams', { schema: { body: CreateTeamBody } }, async (request, reply) => {
    const { fields } = teamFields(request.body);
    const team = await accounting.createTeam(fields, change(request));
    return reply.code(201).send(adminTeamView(team));
  });

  app.get('/admin/v1/teams', { schema: { querystring: ListQuery } }, async (request) => {
    const result = await accounting.listTeams(request.query.limit ?? 100, request.query.after ?? '', call(request));
    return page(result.teams.map(adminTeamView), result.nextPageToken);
  });

  app.get('/admin/v1/teams/:id', { schema: { params: IdParams } }, async (request) =>
    adminTeamView(await accounting.getTeam(request.params.id, call(request))),
  );

  app.patch('/admin/v1/teams/:id', { schema: { params: IdParams, body: PatchTeamBody } }, async (request) => {
    const { fields, mask } = teamFields(request.body ?? {});
    const team = await accounting.updateTeam(request.params.id, fields, mask, change(request));
    return adminTeamView(team);
  });

  app.delete('/admin/v1/teams/:id', { schema: { params: IdParams } }, async (request) => {
    await accounting.deleteTeam(request.params.id, change(request));
    return { id: request.params.id, object: 'team.deleted', deleted: true };
  });
}
