export { startChat, type StartChatOptions } from './server.js';
export { buildChatApp, type ChatApp, type ChatDeps } from './app.js';
export { chatProviders, type ChatProvider, type ParamRule, type ProviderContext } from './providers/index.js';
export { chatCost, readUsage, type ChatUsage } from './domain/metering.js';
export { main } from './main.js';
