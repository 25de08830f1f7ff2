export { startAccounting, type StartAccountingOptions } from './server.js';
export { buildAccountingApp, type AccountingApp, type AccountingDeps } from './app.js';
export { SPEND_CONSUMER } from './spend-consumer.js';
export { KEYS_COLLECTION, type KeyRecord } from './domain/keys.js';
export { DEAD_LETTERS_COLLECTION, DeadLetters, type DeadLetter } from './domain/dead-letters.js';
export { LEDGER_COLLECTION } from './domain/ledger.js';
export { main } from './main.js';
