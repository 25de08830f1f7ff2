export { startGateway, type GatewayOptions, type RunningGateway } from './gateway.js';
export { main } from './main.js';
