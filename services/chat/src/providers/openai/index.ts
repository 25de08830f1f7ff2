import type { ChatProvider } from '../types.js';
import { openaiParams } from './params.js';

/** Plain OpenAI-compatible upstreams: the body as OpenAI defines it, nothing more. */
export const openaiProvider: ChatProvider = {
  name: 'openai',
  params: openaiParams,
  roles: { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool', developer: 'developer' },
  // Reasoning traces are an extension; earlier turns are sent back without them.
  message: ({ reasoning_content: _dropped, ...message }) => message,
};
