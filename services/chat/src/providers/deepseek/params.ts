import type { ParamRule } from '../types.js';
import { deepseekTools } from './tools.js';

/**
 * What the DeepSeek chat API understands. `reasoning_effort` is not copied: it is translated
 * (with the group's default) in finalize, together with the `thinking` switch.
 */
export const deepseekParams: Readonly<Record<string, ParamRule>> = {
  temperature: true,
  top_p: true,
  stop: true,
  max_tokens: true,
  max_completion_tokens: { to: 'max_tokens' },
  presence_penalty: true,
  frequency_penalty: true,
  logprobs: true,
  top_logprobs: true,
  tools: deepseekTools,
  tool_choice: true,
  response_format: true,
  stream: true,
  stream_options: true,
};
