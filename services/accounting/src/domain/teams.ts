import { randomBytes } from 'node:crypto';
import { GroupIndex, type GatewayConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import type { Collection, DocumentStore } from '@gateway/store';
import { type AccountRecord, Balances } from './balances.js';
import { type BudgetPeriod, periodStartOf } from './periods.js';
import { checkAmount, checkLimit, checkMetadata, checkName, resolveModels } from './validation.js';

// Teams: keys that share a model list, a budget and rate limits on top of their own. A team's
// balance is an account like a key's; calls of its keys hold on both (when the team has a
// budget) and its spend is what its keys spent while in it.

export interface TeamRecord extends AccountRecord {
  name: string;
  models: string[];
  /** False: no team budget (budget_nano_usd is 0 and no holds are taken on the team). */
  has_budget: boolean;
  rpm: number;
  tpm: number;
  metadata: Record<string, string>;
  /** Deleted teams stay stored (spend logs name them) but are found by nothing else. */
  deleted_at: Date | null;
}

export interface TeamInput {
  name?: string;
  models?: readonly string[];
  /** null: no team budget. */
  budgetNanoUsd?: number | null;
  budgetPeriod?: BudgetPeriod;
  rpm?: number;
  tpm?: number;
  metadata?: Readonly<Record<string, string>>;
}

export const TEAMS_COLLECTION = 'accounting_teams';
const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 100;

export class TeamRepository {
  readonly balances: Balances<TeamRecord>;

  private constructor(
    private readonly teams: Collection<TeamRecord>,
    private readonly groups: GroupIndex,
    private readonly clock: () => number,
  ) {
    this.balances = new Balances(teams, { deleted_at: null }, clock);
  }

  static async open(store: DocumentStore, config: GatewayConfig, clock: () => number = Date.now): Promise<TeamRepository> {
    const teams = await store.collection<TeamRecord>(TEAMS_COLLECTION, [{ field: 'created_at' }]);
    return new TeamRepository(teams, new GroupIndex(config.groups), clock);
  }

  async create(input: TeamInput): Promise<TeamRecord> {
    const now = this.clock();
    const budget = input.budgetNanoUsd ?? null;
    const period = input.budgetPeriod ?? null;
    const team: TeamRecord = {
      _id: `team_${randomBytes(12).toString('base64url')}`,
      name: checkName(input.name ?? ''),
      models: resolveModels(this.groups, input.models ?? ['*']),
      has_budget: budget !== null,
      budget_nano_usd: budget === null ? 0 : checkAmount('budget_usd', budget),
      budget_period: period,
      period_start_ms: periodStartOf(period, now, now),
      period_spent_nano_usd: 0,
      spent_nano_usd: 0,
      reserved_nano_usd: 0,
      available_nano_usd: budget ?? 0,
      rpm: checkLimit('rpm', input.rpm ?? 0),
      tpm: checkLimit('tpm', input.tpm ?? 0),
      metadata: checkMetadata(input.metadata ?? {}),
      created_at: new Date(now),
      deleted_at: null,
    };
    await this.teams.insertOne(team);
    return team;
  }

  /** A team that exists and is not deleted; 404 team_not_found otherwise. */
  async get(id: string): Promise<TeamRecord> {
    const team = await this.balances.find(id);
    if (!team || team.deleted_at !== null) throw new GatewayError('team_not_found');
    return team;
  }

  /** A team by id even when deleted (settling calls made while it existed). */
  async find(id: string): Promise<TeamRecord | null> {
    return this.balances.find(id);
  }

  /** The teams of `ids` that exist (deleted ones too), by id, read at once. */
  async findMany(ids: readonly string[]): Promise<Map<string, TeamRecord>> {
    const found = ids.length === 0 ? [] : await this.teams.find({ _id: { $in: [...ids] } });
    return new Map(found.map((team) => [team._id, team]));
  }

  /** The team in its current budget period. */
  async current(id: string): Promise<TeamRecord> {
    return this.balances.current(await this.get(id));
  }

  async list(pageSize: number, pageToken: string): Promise<{ teams: TeamRecord[]; nextPageToken: string }> {
    const limit = Math.min(pageSize > 0 ? pageSize : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const filter = pageToken ? { _id: { $gt: pageToken }, deleted_at: null } : { deleted_at: null };
    const teams = await this.teams.find(filter, { sort: { _id: 1 }, limit: limit + 1 });
    const page = teams.slice(0, limit);
    return { teams: page, nextPageToken: teams.length > limit ? (page[page.length - 1]?._id ?? '') : '' };
  }

  async update(
    id: string,
    changes: TeamInput,
    spentSince: (start: number) => Promise<number>,
  ): Promise<{ before: TeamRecord; after: TeamRecord }> {
    const before = await this.get(id);
    const set: Record<string, unknown> = {};
    if (changes.name !== undefined) set.name = checkName(changes.name);
    if (changes.models !== undefined) set.models = resolveModels(this.groups, changes.models);
    if (changes.rpm !== undefined) set.rpm = checkLimit('rpm', changes.rpm);
    if (changes.tpm !== undefined) set.tpm = checkLimit('tpm', changes.tpm);
    if (changes.metadata !== undefined) set.metadata = checkMetadata(changes.metadata);
    if (changes.budgetNanoUsd !== undefined) set.has_budget = changes.budgetNanoUsd !== null;
    if (Object.keys(set).length > 0 && !(await this.teams.updateOne({ _id: id, deleted_at: null }, { $set: set }))) {
      throw new GatewayError('team_not_found');
    }
    if (changes.budgetNanoUsd !== undefined) {
      const budget = changes.budgetNanoUsd === null ? 0 : checkAmount('budget_usd', changes.budgetNanoUsd);
      if (budget !== before.budget_nano_usd) await this.balances.setBudget(id, budget);
    }
    if (changes.budgetPeriod !== undefined && changes.budgetPeriod !== before.budget_period) {
      await this.balances.setPeriod(id, changes.budgetPeriod, spentSince);
    }
    return { before, after: await this.get(id) };
  }

  async delete(id: string): Promise<TeamRecord> {
    const deleted = await this.teams.findOneAndUpdate({ _id: id, deleted_at: null }, { $set: { deleted_at: new Date(this.clock()) } });
    if (!deleted) throw new GatewayError('team_not_found');
    return deleted;
  }
}
