import { fieldsOf, type RequestContext } from '@gateway/logging';
import type { FastifyBaseLogger } from 'fastify';
import type { ModelGroup__Output } from '@gateway/protos';
import type { Downstream } from './downstream.js';

/**
 * The groups served right now, as the chat and video services report them (they hold the
 * credentials, so only they know). Cached briefly; a service that does not answer contributes
 * nothing, since its groups cannot be called either, and the partial answer is not cached.
 */
export class ModelCatalog {
  #cached: { groups: ModelGroup__Output[]; byName: Map<string, ModelGroup__Output>; expiresAt: number } | undefined;
  #pending: Promise<ModelGroup__Output[]> | undefined;

  constructor(
    private readonly downstream: Downstream,
    private readonly ttlMs: number,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async groups(origin: RequestContext = {}): Promise<ModelGroup__Output[]> {
    if (this.#cached && this.#cached.expiresAt > Date.now()) return this.#cached.groups;
    this.#pending ??= this.#load(origin).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** The served group a `model` string (id or alias) names, if any. */
  async resolve(model: string, origin: RequestContext = {}): Promise<ModelGroup__Output | undefined> {
    if (this.#cached && this.#cached.expiresAt > Date.now()) return this.#cached.byName.get(model);
    const groups = await this.groups(origin);
    return groups.find((g) => g.id === model) ?? groups.find((g) => g.aliases.includes(model));
  }

  /** The served group id a `model` string names, from the cache only (no call): for metric labels. */
  cachedGroupId(model: string): string | undefined {
    return this.#cached?.byName.get(model)?.id;
  }

  async #load(origin: RequestContext): Promise<ModelGroup__Output[]> {
    const context = { ...origin, deadlineMs: 2000 };
    const results = await Promise.allSettled([this.downstream.chat.listModels(context), this.downstream.video.listModels(context)]);
    const groups: ModelGroup__Output[] = [];
    let complete = true;
    for (const [i, result] of results.entries()) {
      if (result.status === 'fulfilled') groups.push(...result.value);
      else {
        complete = false;
        this.logger.warn(
          { err: result.reason, service: i === 0 ? 'chat' : 'video', ...fieldsOf(origin.scope), requestId: origin.requestId },
          'could not list served groups',
        );
      }
    }
    if (complete) {
      const byName = new Map<string, ModelGroup__Output>();
      for (const group of groups) {
        byName.set(group.id, group);
        for (const alias of group.aliases) byName.set(alias, group);
      }
      this.#cached = { groups, byName, expiresAt: Date.now() + this.ttlMs };
    }
    return groups;
  }
}
