export { startVideo, type StartVideoOptions } from './server.js';
export { buildVideoApp, jobMessage, type VideoApp, type VideoDeps } from './app.js';
export { videoProviders, type VideoProvider } from './providers/index.js';
export { TASKS_COLLECTION } from './domain/tasks.js';
export { main } from './main.js';
