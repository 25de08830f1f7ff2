export { startChat, type StartChatOptions } from './server.js';
export { buildChatApp, type ChatApp, type ChatDeps } from './app.js';
export { ChatClient, type Completion, type CompletionCall, type CompletionStream } from './client.js';
export { chatProviders, type ChatProvider, type ParamRule, type ProviderContext } from './providers/index.js';
export { chatCost, readUsage, type ChatUsage } from './domain/metering.js';
export { newCompletionId } from './domain/completions.js';
export { main } from './main.js';
