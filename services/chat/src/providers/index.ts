import { deepseekProvider } from './deepseek/index.js';
import { demoProvider } from './demo/index.js';
import { openaiProvider } from './openai/index.js';
import type { ChatProvider } from './types.js';

export type { ChatProvider, LocalUpstream, ParamRule, ProviderContext } from './types.js';
export { buildUpstreamBody } from './build.js';

/** Every chat provider protocol, by the name deployments use. Adding one: a folder and a line here. */
export const chatProviders: ReadonlyMap<string, ChatProvider> = new Map(
  [openaiProvider, deepseekProvider, demoProvider].map((provider) => [provider.name, provider]),
);
