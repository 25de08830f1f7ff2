import type { ParamRule } from '../types.js';

/** What a plain OpenAI-compatible chat completions endpoint understands. */
export const openaiParams: Readonly<Record<string, ParamRule>> = {
  temperature: true,
  top_p: true,
  n: true,
  stop: true,
  max_tokens: true,
  max_completion_tokens: true,
  presence_penalty: true,
  frequency_penalty: true,
  logit_bias: true,
  logprobs: true,
  top_logprobs: true,
  seed: true,
  user: true,
  tools: true,
  tool_choice: true,
  parallel_tool_calls: true,
  response_format: true,
  stream: true,
  stream_options: true,
};
