export { startGateway, type GatewayOptions, type RunningGateway } from './gateway.js';
export { main } from './main.js';
export { NODE_FLAGS, SERVICE_NODE_FLAGS, serviceNodeFlags } from './processes.js';
