import type { ChatGroupConfig } from '@gateway/config';
import { worstCaseTokenCost } from '@gateway/pricing';
import { countPromptTokens, promptHoldTokens as heldForCount } from '@gateway/tokenizer';
import type { ChatRequest } from './request.js';

// The most a call can cost, held on the key's budget before it goes upstream: everything the
// upstream bills as input (messages, tool calls and results, tool schemas, response format,
// images), counted by the gateway's tokenizer and raised by the tokenizer's measured worst
// undercount, plus every completion token the call may produce, at the dearest price window.

/** Prompt tokens held per image part (a high-detail image costs about 765-1,105). */
export const IMAGE_HOLD_TOKENS = 1500;

/** The prompt tokens held for a call, capped by the group's input window (the upstream refuses longer prompts, unbilled). */
export function promptHoldTokens(group: ChatGroupConfig, request: ChatRequest): number {
  return Math.min(group.maxInputTokens, heldForCount(countPromptTokens(request.body), IMAGE_HOLD_TOKENS));
}

/** The call's worst case in nano-dollars: held prompt plus the completion limit asked for, else the group's maximum output. */
export function worstCaseCost(group: ChatGroupConfig, request: ChatRequest): number {
  const asked = request.body.max_completion_tokens ?? request.body.max_tokens;
  const completion = typeof asked === 'number' ? asked : group.maxOutputTokens;
  return worstCaseTokenCost(group.price, promptHoldTokens(group, request), completion);
}
