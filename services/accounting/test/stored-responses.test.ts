import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMongo, type DocumentStore, isDuplicateKey, SqliteStore } from '@gateway/store';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_MONGODB, realMongo, withDatabase } from '../../../test/helpers/mongodb.js';
import { type StoredResponseEntry, StoredResponses } from '../src/domain/stored-responses.js';
import { cleanupAfterEach } from './support.js';

// The stored-response repository on both stores: the embedded one every time, MongoDB when
// MONGODB_URI is set or a Docker engine is reachable (skipped otherwise, saying why).

const cleanup = cleanupAfterEach();
const RETENTION_SECONDS = 3600;
// Now: the embedded store also judges its TTL by the real clock.
const START = Date.now();

const mongo = await realMongo(`gateway_stored_responses_${process.pid}_${Date.now()}`);
afterAll(async () => mongo?.stop());

async function embedded(): Promise<DocumentStore> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-stored-responses-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return new SqliteStore(dir);
}

let mongoRuns = 0;
const stores: { name: string; enabled: boolean; open: () => Promise<DocumentStore> }[] = [
  { name: 'embedded', enabled: true, open: embedded },
  {
    name: `mongodb (${mongo?.source ?? NO_MONGODB})`,
    enabled: mongo !== undefined,
    // A database of its own per test: the TTL test opens the collection with another expiry.
    open: () => connectMongo(withDatabase(mongo?.uri ?? 'mongodb://absent', `gateway_stored_responses_${process.pid}_${(mongoRuns += 1)}`)),
  },
];

function entry(id: string, keyId: string, createdAtMs: number, turn = 1): StoredResponseEntry {
  return {
    id,
    keyId,
    response: JSON.stringify({ id, object: 'response', output_text: `turn ${turn}` }),
    inputItems: JSON.stringify([{ id: `msg_${turn}`, role: 'user', content: `héllo ${turn}` }]),
    createdAtMs,
  };
}

for (const { name, enabled, open } of stores) {
  describe.runIf(enabled)(`stored responses on ${name}`, () => {
    async function repository() {
      const store = await open();
      cleanup(() => store.close());
      const clock = { now: START };
      const responses = await StoredResponses.open(store, RETENTION_SECONDS, () => clock.now);
      return { clock, responses };
    }

    it('gives back what was put, to its own key only', async () => {
      const { responses } = await repository();
      const stored = entry('resp_aaaaaaaa', 'key_a', START);
      await responses.put(stored);
      expect(await responses.get('key_a', 'resp_aaaaaaaa')).toEqual(stored);
      expect(await responses.get('key_b', 'resp_aaaaaaaa')).toBeUndefined();
      expect(await responses.get('key_a', 'resp_unknown1')).toBeUndefined();
    });

    it('replaces the key’s own record of an id, and refuses another key’s', async () => {
      const { responses } = await repository();
      await responses.put(entry('resp_bbbbbbbb', 'key_a', START, 1));
      const second = entry('resp_bbbbbbbb', 'key_a', START + 5, 2);
      await responses.put(second);
      expect(await responses.get('key_a', 'resp_bbbbbbbb')).toEqual(second);
      const taken = await responses.put(entry('resp_bbbbbbbb', 'key_b', START)).catch((error: unknown) => error);
      expect(isDuplicateKey(taken)).toBe(true);
      expect(await responses.get('key_a', 'resp_bbbbbbbb')).toEqual(second);
    });

    it('writes puts of one moment together; a retried one among them still lands, and the others with it', async () => {
      const { responses } = await repository();
      await responses.put(entry('resp_eeeeeeee', 'key_a', START, 1));
      const batch = [
        entry('resp_ffffffff', 'key_a', START),
        entry('resp_eeeeeeee', 'key_a', START, 2),
        entry('resp_gggggggg', 'key_b', START),
      ];
      await Promise.all(batch.map((stored) => responses.put(stored)));
      for (const stored of batch) expect(await responses.get(stored.keyId, stored.id)).toEqual(stored);
    });

    it('reads a response past the retention as absent, before any sweep', async () => {
      const { clock, responses } = await repository();
      await responses.put(entry('resp_cccccccc', 'key_a', START));
      await responses.put(entry('resp_dddddddd', 'key_a', START));
      clock.now = START + RETENTION_SECONDS * 1000 - 1;
      expect(await responses.get('key_a', 'resp_cccccccc')).toBeDefined();
      clock.now = START + RETENTION_SECONDS * 1000;
      expect(await responses.get('key_a', 'resp_cccccccc')).toBeUndefined();
      expect(await responses.delete('key_a', 'resp_dddddddd')).toBe(false);
    });

    it('deletes the key’s own response once, and never another key’s', async () => {
      const { responses } = await repository();
      await responses.put(entry('resp_eeeeeeee', 'key_a', START));
      expect(await responses.delete('key_b', 'resp_eeeeeeee')).toBe(false);
      expect(await responses.get('key_a', 'resp_eeeeeeee')).toBeDefined();
      expect(await responses.delete('key_a', 'resp_eeeeeeee')).toBe(true);
      expect(await responses.get('key_a', 'resp_eeeeeeee')).toBeUndefined();
      expect(await responses.delete('key_a', 'resp_eeeeeeee')).toBe(false);
    });

    it('leaves expired records to the store’s TTL as well (real time)', async () => {
      const store = await open();
      cleanup(() => store.close());
      // The repository's clock says "now", the record is two seconds old, the retention one second.
      const responses = await StoredResponses.open(store, 1);
      await responses.put(entry('resp_ffffffff', 'key_a', Date.now() - 2000));
      expect(await responses.get('key_a', 'resp_ffffffff')).toBeUndefined();
    });
  });
}
