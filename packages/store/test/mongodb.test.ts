import { afterAll } from 'vitest';
import { NO_MONGODB, realMongo } from '../../../test/helpers/mongodb.js';
import { MongoStore } from '../src/mongodb.js';
import { storeContract } from './contract.js';

// Runs against a real MongoDB: MONGODB_URI's, else a testcontainers one when a Docker engine is
// reachable; without either the suite is reported as skipped. The embedded adapter runs the same
// contract every time (embedded.test.ts).
const mongo = await realMongo(`gateway_contract_${process.pid}_${Date.now()}`);
afterAll(async () => mongo?.stop());

storeContract(mongo ? `mongodb (${mongo.source})` : `mongodb (${NO_MONGODB})`, () => MongoStore.connect(mongo?.uri ?? ''), {
  // MongoDB's TTL monitor runs once a minute.
  ttlGraceMs: 75_000,
  enabled: mongo !== undefined,
});
