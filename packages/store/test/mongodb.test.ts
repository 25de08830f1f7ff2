import { MongoStore } from '../src/mongodb.js';
import { storeContract } from './contract.js';

// Runs against a real MongoDB when MONGODB_URI is set; without it the suite is reported as
// skipped. The embedded adapter runs the same contract every time (embedded.test.ts).
const uri = process.env.MONGODB_URI ?? '';
const dbName = `gateway_contract_${process.pid}_${Date.now()}`;

storeContract(`mongodb${uri ? '' : ' (set MONGODB_URI to run)'}`, () => MongoStore.connect(uri, dbName), {
  // MongoDB's TTL monitor runs once a minute.
  ttlGraceMs: 75_000,
  enabled: uri !== '',
});
