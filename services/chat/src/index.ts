export { startChat, type StartChatOptions } from './server.js';
export { buildChatApp, type ChatApp, type ChatDeps } from './app.js';
export { chatProviders, type ChatProvider, type ParamRule, type ProviderContext } from './providers/index.js';
export { priceUsage, type MeteredUsage } from './domain/metering.js';
export { readUsage, type ChatUsage } from './domain/usage.js';
export { main } from './main.js';
export { accountingResponseStore, type ResponseStore } from './responses/storage.js';
