import type { ReasoningEffort } from '@gateway/config';
import type { ChatProvider } from '../types.js';
import { deepseekParams } from './params.js';
import { deepseekUsage } from './usage.js';

/**
 * The gateway's effort as DeepSeek takes it: `none` switches thinking off; `low` and `high` are
 * its `high`; `max` is `max`. The switch is always sent explicitly.
 */
export function thinkingFor(effort: ReasoningEffort | undefined): {
  thinking: { type: 'enabled' | 'disabled' };
  reasoning_effort?: 'high' | 'max';
} {
  if (effort === undefined || effort === 'none') return { thinking: { type: 'disabled' } };
  return { thinking: { type: 'enabled' }, reasoning_effort: effort === 'max' ? 'max' : 'high' };
}

/** DeepSeek: OpenAI-compatible with thinking controls and `reasoning_content` traces. */
export const deepseekProvider: ChatProvider = {
  name: 'deepseek',
  params: deepseekParams,
  // DeepSeek has no `developer` role; its instructions are system instructions.
  roles: { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool', developer: 'system' },
  // Earlier assistant turns go back without their reasoning trace, as DeepSeek asks.
  message: ({ reasoning_content: _dropped, ...message }) => message,
  finalize: (body, request, { group }) => {
    Object.assign(body, thinkingFor(group.reasoning ? request.reasoningEffort : undefined));
  },
  // Its prompt-cache counts, read as every adapter's are: prompt_tokens_details.cached_tokens.
  response: (body) => deepseekUsage(body.usage),
  chunk: (chunk) => deepseekUsage(chunk.usage),
};
