export * from './port.js';
export * from './events.js';
export { InProcessBus, type InProcessBusOptions } from './in-process.js';
