import { fieldsOf, type RequestContext } from '@gateway/logging';
import type { FastifyBaseLogger } from 'fastify';
import type { ModelGroup__Output } from '@gateway/protos';
import type { Downstream } from './downstream.js';

type Source = 'chat' | 'video';

/** One service's served groups: what it last said, and whether asking again is under way. */
interface Listing {
  groups: ModelGroup__Output[] | undefined;
  /** When it last answered, or last failed to (ms). */
  checkedAt: number;
  pending: Promise<void> | undefined;
}

/** The longest a request waits for a listing the edge has never had (the first one after start). */
const FIRST_LIST_DEADLINE_MS = 2000;

/**
 * The groups served right now, as the chat and video services report them (they hold the
 * credentials, so only they know), kept per service. A listing older than the TTL is asked for
 * again in the background while requests go on with the one at hand, so a hung or stopped
 * service never slows a call to the other: a chat call does not wait on the video service. Only
 * a listing the edge has never had is waited for, at most 2 s, and not again until the TTL has
 * passed since that attempt.
 */
export class ModelCatalog {
  readonly #listings: Record<Source, Listing> = {
    chat: { groups: undefined, checkedAt: 0, pending: undefined },
    video: { groups: undefined, checkedAt: 0, pending: undefined },
  };
  #byName = new Map<string, ModelGroup__Output>();

  constructor(
    private readonly downstream: Downstream,
    private readonly ttlMs: number,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async groups(origin: RequestContext = {}): Promise<ModelGroup__Output[]> {
    await this.#fresh(origin);
    return [...(this.#listings.chat.groups ?? []), ...(this.#listings.video.groups ?? [])];
  }

  /** The served group a `model` string (id or alias) names, if any. */
  async resolve(model: string, origin: RequestContext = {}): Promise<ModelGroup__Output | undefined> {
    await this.#fresh(origin);
    return this.#byName.get(model);
  }

  /** The served group id a `model` string names, from what is at hand only (no call): for metric labels. */
  cachedGroupId(model: string): string | undefined {
    return this.#byName.get(model)?.id;
  }

  /** Starts the refreshes that are due; waits only for a first listing not yet tried lately. */
  async #fresh(origin: RequestContext): Promise<void> {
    const now = Date.now();
    const waits: Promise<void>[] = [];
    for (const source of ['chat', 'video'] as const) {
      const listing = this.#listings[source];
      if (now - listing.checkedAt < this.ttlMs) continue;
      listing.pending ??= this.#load(source, origin).finally(() => {
        listing.pending = undefined;
      });
      if (listing.groups === undefined) waits.push(listing.pending);
    }
    if (waits.length > 0) await Promise.all(waits);
  }

  async #load(source: Source, origin: RequestContext): Promise<void> {
    const listing = this.#listings[source];
    const context = { ...origin, deadlineMs: FIRST_LIST_DEADLINE_MS };
    try {
      listing.groups = await this.downstream[source].listModels(context);
    } catch (error) {
      this.logger.warn(
        { err: error, service: source, ...fieldsOf(origin.scope), requestId: origin.requestId },
        'could not list served groups',
      );
    } finally {
      listing.checkedAt = Date.now();
    }
    const byName = new Map<string, ModelGroup__Output>();
    for (const group of [...(this.#listings.chat.groups ?? []), ...(this.#listings.video.groups ?? [])]) {
      byName.set(group.id, group);
      for (const alias of group.aliases) if (!byName.has(alias)) byName.set(alias, group);
    }
    this.#byName = byName;
  }
}
