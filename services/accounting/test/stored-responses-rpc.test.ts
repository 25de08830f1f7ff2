import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@gateway/bus';
import { exampleConfigPath, loadConfig } from '@gateway/config';
import {
  AccountingClient,
  deleteStoredResponse,
  getStoredResponse,
  hashSecret,
  putStoredResponse,
  type StoredResponseRecord,
} from '@gateway/contracts';
import { errorCatalog, GatewayError } from '@gateway/errors';
import { Status } from '@gateway/grpc';
import { silentLogger } from '@gateway/logging';
import { SqliteStore } from '@gateway/store';
import { describe, expect, it } from 'vitest';
import { KEYS_COLLECTION, startAccounting } from '../src/index.js';
import { cleanupAfterEach } from './support.js';

// The stored-response RPCs through the contracts client: another key's response and an expired
// one are NOT_FOUND (undefined, false to the client), bad records are invalid_request; and the
// keys' response_storage_off on create, update, authentication and older rows.

const cleanup = cleanupAfterEach();
const RETENTION_SECONDS = 600;

async function start() {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-stored-rpc-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  const bus = new InProcessBus();
  cleanup(() => bus.close());
  const example = await loadConfig(exampleConfigPath);
  const config = { ...example, responses: { store: true, retentionSeconds: RETENTION_SECONDS } };
  const clock = { now: Date.now() };
  const store = new SqliteStore(dir);
  const service = await startAccounting({
    config,
    bus,
    store,
    logger: silentLogger(),
    env: {},
    listen: '127.0.0.1:0',
    clock: () => clock.now,
  });
  cleanup(() => service.close());
  const client = new AccountingClient(service.address);
  cleanup(() => client.close());
  return { client, clock, dir };
}

function record(id: string, keyId: string, createdAtMs: number): StoredResponseRecord {
  return {
    id,
    keyId,
    response: Buffer.from(JSON.stringify({ id, object: 'response', status: 'completed' })),
    inputItems: Buffer.from(JSON.stringify([{ id: 'msg_1', type: 'message', role: 'user', content: 'hi ✓' }])),
    createdAtMs,
  };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('stored responses over gRPC', () => {
  it('answers the own key, and another key as if the response did not exist', async () => {
    const { client, clock } = await start();
    const stored = record('resp_0123456789abcdef', 'key_a', clock.now);
    await putStoredResponse(client, stored);
    expect(await getStoredResponse(client, 'key_a', stored.id)).toEqual(stored);
    expect(await getStoredResponse(client, 'key_b', stored.id)).toBeUndefined();
    expect(await deleteStoredResponse(client, 'key_b', stored.id)).toBe(false);
    expect(await getStoredResponse(client, 'key_a', 'resp_0000000000000000')).toBeUndefined();
    expect(errorCatalog.response_not_found).toMatchObject({ grpc: Status.NOT_FOUND, http: 404, type: 'invalid_request_error' });
    expect(await deleteStoredResponse(client, 'key_a', stored.id)).toBe(true);
    expect(await getStoredResponse(client, 'key_a', stored.id)).toBeUndefined();
    expect(await deleteStoredResponse(client, 'key_a', stored.id)).toBe(false);
  });

  it('forgets a response once the retention has passed', async () => {
    const { client, clock } = await start();
    const stored = record('resp_expiring0001', 'key_a', clock.now);
    await client.putStoredResponse(stored);
    clock.now += RETENTION_SECONDS * 1000 - 1;
    expect(await client.getStoredResponse('key_a', stored.id)).toBeDefined();
    clock.now += 1;
    expect(await client.getStoredResponse('key_a', stored.id)).toBeUndefined();
    expect(await client.deleteStoredResponse('key_a', stored.id)).toBe(false);
  });

  it('refuses records that are not a key’s, a response id or JSON', async () => {
    const { client, clock } = await start();
    const good = record('resp_valid0000001', 'key_a', clock.now);
    const cases: [Partial<StoredResponseRecord>, string][] = [
      [{ keyId: '' }, 'key_id'],
      [{ id: 'chatcmpl_0123456789' }, 'id'],
      [{ id: 'resp_short' }, 'id'],
      [{ id: `resp_${'a'.repeat(65)}` }, 'id'],
      [{ response: Buffer.from('{"unterminated"') }, 'response'],
      [{ response: Buffer.from('[]') }, 'response'],
      [{ inputItems: Buffer.from('{}') }, 'input_items'],
      [{ inputItems: Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]) }, 'input_items'],
    ];
    for (const [change, param] of cases) {
      const error = await failure(client.putStoredResponse({ ...good, ...change }));
      expect({ code: error.code, param: error.param }).toEqual({ code: 'invalid_request', param });
    }
    const badId = await failure(client.getStoredResponse('key_a', 'resp_no'));
    expect({ code: badId.code, param: badId.param }).toEqual({ code: 'invalid_request', param: 'response_id' });
    expect((await failure(client.deleteStoredResponse('', good.id))).param).toBe('key_id');
  });

  it('refuses an id another key holds instead of taking it over', async () => {
    const { client, clock } = await start();
    await client.putStoredResponse(record('resp_shared000001', 'key_a', clock.now));
    const error = await failure(client.putStoredResponse(record('resp_shared000001', 'key_b', clock.now)));
    expect({ code: error.code, param: error.param }).toEqual({ code: 'invalid_request', param: 'id' });
    expect((await client.getStoredResponse('key_a', 'resp_shared000001'))?.keyId).toBe('key_a');
  });

  it('stamps a record sent without a creation time with accounting’s now', async () => {
    const { client, clock } = await start();
    await client.putStoredResponse({ ...record('resp_undated00001', 'key_a', 0) });
    expect((await client.getStoredResponse('key_a', 'resp_undated00001'))?.createdAtMs).toBe(clock.now);
  });
});

describe('response_storage_off on keys', () => {
  it('is set at creation, changed by update (audited) and read by authentication', async () => {
    const { client } = await start();
    const on = await client.createKey({ name: 'on', models: ['*'], budgetNanoUsd: 1, rpm: 0 });
    expect(on.key.response_storage_off).toBe(false);
    const off = await client.createKey({ name: 'off', models: ['*'], budgetNanoUsd: 1, rpm: 0, responseStorageOff: true });
    expect(off.key.response_storage_off).toBe(true);
    expect((await client.authenticateKey(hashSecret(off.secret))).key.response_storage_off).toBe(true);
    const updated = await client.updateKey(off.key.id, { response_storage_off: false }, ['response_storage_off']);
    expect(updated.response_storage_off).toBe(false);
    const { events } = await client.listAuditEvents({ targetId: off.key.id });
    // The test's clock stands still: both entries share a time, so find the update by its action.
    const update = events.find((e) => e.action === 'key.updated');
    expect(JSON.parse(update?.changes_json ?? '{}')).toEqual({ store_responses: { from: false, to: true } });
    expect(JSON.parse(events.find((e) => e.action === 'key.created')?.changes_json ?? '{}')).toMatchObject({
      store_responses: { from: null, to: false },
    });
  });

  it('reads as off-not-set (storage on) on keys written before the field', async () => {
    const { client, dir } = await start();
    const { key } = await client.createKey({ name: 'old', models: ['*'], budgetNanoUsd: 1, rpm: 0, responseStorageOff: true });
    // The store is the service's own: a second handle on the same folder shares its connection.
    const store = new SqliteStore(dir);
    const keys = await store.collection(KEYS_COLLECTION);
    await keys.updateOne({ _id: key.id }, { $unset: { response_storage_off: true } });
    expect((await client.getKey(key.id)).key.response_storage_off).toBe(false);
  });
});
