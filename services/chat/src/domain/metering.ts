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
  const cost = tokenCost(usage, ratesAt(group.price, atMs));
  // Field by field: an object spread here measured 2 µs a call (V8's generic clone), this 0.1.
  return {
    prompt_tokens: usage.prompt_tokens,
    cached_tokens: usage.cached_tokens,
    completion_tokens: usage.completion_tokens,
    reasoning_tokens: usage.reasoning_tokens,
    cost_nano_usd: cost.costNanoUsd,
    cache_saved_nano_usd: cost.cacheSavedNanoUsd,
    estimated,
  };
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

/** The event's usage map; cached tokens only when there were some, so rows without stay as they were. */
function usageMap(usage: ChatUsage): Record<string, number> {
  const map: Record<string, number> = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    reasoning_tokens: usage.reasoning_tokens,
  };
  if (usage.cached_tokens > 0) map.cached_tokens = usage.cached_tokens;
  return map;
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
        usage: usageMap(usage),
        ...claim,
      };
      if (estimated) event.estimated = true;
      if (metered.cache_saved_nano_usd > 0) event.cache_saved_nano_usd = metered.cache_saved_nano_usd;
      await bus.publish(spendSubject('chat'), event.id, event, encodeSpendEvent);
      return metered;
    },
  };
}
