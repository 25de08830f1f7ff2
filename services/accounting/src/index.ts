export { startAccounting, type StartAccountingOptions } from './server.js';
export { buildAccountingApp, SPEND_CONSUMER, type AccountingApp, type AccountingDeps } from './app.js';
export { AccountingClient, accountingBudget } from './client.js';
export { BudgetLeases, type BudgetLeaseOptions } from './leases.js';
export { hashSecret, looksLikeSecret, KEY_PREFIX } from './domain/secrets.js';
export { ALL_MODELS, keyAllows, KEYS_COLLECTION, type KeyRecord } from './domain/keys.js';
export { LEDGER_COLLECTION, USAGE_COLLECTION } from './domain/ledger.js';
export { main } from './main.js';
