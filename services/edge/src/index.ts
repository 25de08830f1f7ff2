export { startEdge, type StartEdgeOptions } from './server.js';
export { buildEdge, edgeApp, edgeServerOptions, type EdgeAppOptions } from './app.js';
export { Downstream, type DownstreamAddresses, type DownstreamName } from './downstream.js';
export { KeyAuthenticator, bearerSecret, type AuthenticatedKey } from './auth.js';
export { main } from './main.js';
