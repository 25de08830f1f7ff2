import type { Bus } from '@gateway/bus';
import { encodeSpendEvent, spendSubject, type BudgetClaim, type SpendEvent } from '@gateway/contracts';
import type { ChatGroupConfig } from '@gateway/config';
import { ratesAt, tokenCost } from '@gateway/pricing';
import type { ChatUsage } from './usage.js';

// A call's price: its token counts at the group's rates in force when its upstream call
// started (time-of-day windows), cached prompt tokens at the cache-hit price, computed exactly
// and rounded once to the nano-dollar (@gateway/pricing).

/** A call's tokens and price as metered (the proto's MeteredUsage). */
export interface MeteredUsage extends ChatUsage {
  cost_nano_usd: number;
  /** What the cached tokens saved against the uncached input price. */
  cache_saved_nano_usd: number;
  /** Counted by the gateway (the caller left, or the upstream sent no usage). */
  estimated: boolean;
}

/** Prices a call's usage at the group's rates at `atMs` (Unix ms). */
export function priceUsage(usage: ChatUsage, group: ChatGroupConfig, atMs: number, estimated: boolean): MeteredUsage {
  const { costNanoUsd, cacheSavedNanoUsd } = tokenCost(usage, ratesAt(group.price, atMs));
  return { ...usage, cost_nano_usd: costNanoUsd, cache_saved_nano_usd: cacheSavedNanoUsd, estimated };
}

export interface MeterInput {
  /** Its completion id: the spend event's idempotency id, so the call counts once. */
  completionId: string;
  keyId: string;
  /** The group the caller asked for (spend is booked there). */
  group: string;
  /** The group whose deployment served it (a fallback's own price applies). */
  servedBy: ChatGroupConfig;
  usage: ChatUsage;
  /** Unix ms the successful upstream attempt started: its price window. */
  startedAtMs: number;
  estimated: boolean;
  claim?: BudgetClaim;
}

export interface Meter {
  /** Prices one completed call and publishes its spend. */
  record(input: MeterInput): Promise<MeteredUsage>;
}

export function busMeter(bus: Bus, clock: () => number = Date.now): Meter {
  return {
    record: async ({ completionId, keyId, group, servedBy, usage, startedAtMs, estimated, claim }) => {
      const metered = priceUsage(usage, servedBy, startedAtMs, estimated);
      const event: SpendEvent = {
        id: completionId,
        kind: 'chat',
        key_id: keyId,
        group,
        cost_nano_usd: metered.cost_nano_usd,
        occurred_at: clock(),
        usage: {
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          reasoning_tokens: usage.reasoning_tokens,
          // Absent rather than 0: the rows of calls without cache hits stay as they were.
          ...(usage.cached_tokens > 0 ? { cached_tokens: usage.cached_tokens } : {}),
        },
        ...(estimated ? { estimated: true } : {}),
        ...(metered.cache_saved_nano_usd > 0 ? { cache_saved_nano_usd: metered.cache_saved_nano_usd } : {}),
        ...claim,
      };
      await bus.publish(spendSubject('chat'), event.id, event, encodeSpendEvent);
      return metered;
    },
  };
}
