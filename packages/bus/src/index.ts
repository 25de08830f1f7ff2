export * from './port.js';
export * from './events.js';
export { InProcessBus, type InProcessBusOptions } from './in-process.js';
export { NatsBus, type NatsBusOptions, type OutboxEntry } from './nats.js';
