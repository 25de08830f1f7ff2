import type { Bus } from '@gateway/bus';
import { encodeSpendEvent, spendSubject, type SpendEvent } from '@gateway/contracts';
import type { ChatGroupConfig } from '@gateway/config';
import type { BudgetClaim } from '@gateway/contracts';
import type { JsonObject } from './request.js';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/** The token counts of an OpenAI-shaped `usage` block, or undefined when there is none. */
export function readUsage(usage: unknown): ChatUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as JsonObject;
  const details = (u.completion_tokens_details ?? {}) as JsonObject;
  return {
    prompt_tokens: count(u.prompt_tokens),
    completion_tokens: count(u.completion_tokens),
    reasoning_tokens: count(details.reasoning_tokens),
  };
}

/** Whole nano-dollars: prompt tokens at the input price plus completion tokens (reasoning included) at the output price. */
export function chatCost(usage: ChatUsage, group: ChatGroupConfig): number {
  return usage.prompt_tokens * group.price.inputNanosPerToken + usage.completion_tokens * group.price.outputNanosPerToken;
}

/** The usage block as callers see it: always with completion_tokens_details.reasoning_tokens. */
export function normalizeUsage(usage: JsonObject): void {
  const details = usage.completion_tokens_details;
  if (typeof details !== 'object' || details === null) usage.completion_tokens_details = { reasoning_tokens: 0 };
  else if (typeof (details as JsonObject).reasoning_tokens !== 'number') (details as JsonObject).reasoning_tokens = 0;
}

export interface Meter {
  /** Publishes the spend of one completed call; its completion id makes it count once. */
  record(input: {
    completionId: string;
    keyId: string;
    group: string;
    servedBy: ChatGroupConfig;
    usage: ChatUsage;
    claim?: BudgetClaim;
  }): Promise<void>;
}

export function busMeter(bus: Bus): Meter {
  return {
    record: async ({ completionId, keyId, group, servedBy, usage, claim }) => {
      const event: SpendEvent = {
        id: completionId,
        kind: 'chat',
        key_id: keyId,
        group,
        cost_nano_usd: chatCost(usage, servedBy),
        occurred_at: Date.now(),
        usage: { ...usage },
        ...claim,
      };
      await bus.publish(spendSubject('chat'), event.id, event, encodeSpendEvent);
    },
  };
}
