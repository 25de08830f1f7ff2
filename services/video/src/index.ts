export { startVideo, type StartVideoOptions } from './server.js';
export { buildVideoApp, type VideoApp, type VideoDeps } from './app.js';
export { VideoClient } from './client.js';
export { main } from './main.js';
