export { startChat, type StartChatOptions } from './server.js';
export { buildChatApp, type ChatApp, type ChatDeps } from './app.js';
export { ChatClient } from './client.js';
export { main } from './main.js';
