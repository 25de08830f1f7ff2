import type { ChatGroupConfig } from '@gateway/config';
import { worstCaseTokenCost } from '@gateway/pricing';
import { holdPromptTokens } from '@gateway/tokenizer';
import type { ChatRequest } from './request.js';

// The most a call can cost, held on the key's budget before it goes upstream: everything the
// upstream bills as input (messages, tool calls and results, tool schemas, response format,
// images), counted by the gateway's tokenizer and raised by its measured worst undercount (a
// small prompt: its bytes, a bound no tokenizer exceeds), plus every completion token the call
// may produce, at the dearest price window.

/** Prompt tokens held per image part (a high-detail image costs about 765-1,105). */
export const IMAGE_HOLD_TOKENS = 1500;

/** The prompt tokens held for a call, capped by the group's input window (the upstream refuses longer prompts, unbilled). */
export function promptHoldTokens(group: ChatGroupConfig, request: ChatRequest): number {
  return Math.min(group.maxInputTokens, holdPromptTokens(request.body, IMAGE_HOLD_TOKENS));
}

/** The call's worst case in nano-dollars: held prompt plus the completion limit asked for, else the group's maximum output. */
export function worstCaseCost(group: ChatGroupConfig, request: ChatRequest): number {
  const asked = request.body.max_completion_tokens ?? request.body.max_tokens;
  const completion = typeof asked === 'number' ? asked : group.maxOutputTokens;
  return worstCaseTokenCost(group.price, promptHoldTokens(group, request), completion);
}
