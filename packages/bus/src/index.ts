export * from './port.js';
export { InProcessBus, type InProcessBusOptions } from './in-process.js';
export { NatsBus, NatsUnreachableError, type NatsBusOptions } from './nats.js';
export { OUTBOX_COLLECTION, openOutbox, type OutboxEntry } from './outbox.js';
