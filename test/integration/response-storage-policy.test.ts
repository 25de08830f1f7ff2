import { parseConfig } from '@gateway/config';
import { AccountingClient } from '@gateway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// A key's response-storage policy through the admin API of a running one-process gateway:
// `store_responses` on create (default true), PATCH, GET and list, audited, and refused when it
// is not a boolean. A configuration's `responses` section loads alongside.

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({
    env: { C: 'c' },
    config: parseConfig(
      `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: m, api_base: "http://127.0.0.1:9/v1", api_key_env: C }]
responses: { store: true, retention_seconds: 3600 }
`,
      'response-storage-policy-test',
    ),
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
});

interface KeyObject {
  id: string;
  store_responses: boolean;
}

async function json<T>(response: Promise<Response> | Response): Promise<T> {
  const answer = await response;
  if (!answer.ok) throw new Error(`${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

const create = (body: Record<string, unknown> = {}) =>
  gateway.admin('POST', '/admin/v1/keys', { name: 'k', models: ['*'], budget_usd: 1, ...body });
const getKey = (id: string) => json<KeyObject>(gateway.admin('GET', `/admin/v1/keys/${id}`));

async function errorOf(response: Promise<Response>): Promise<{ status: number; code: string; param: string | null }> {
  const answer = await response;
  const body = (await answer.json()) as { error: { code: string; param: string | null } };
  return { status: answer.status, code: body.error.code, param: body.error.param };
}

describe('store_responses on keys', () => {
  it('is true unless the key is created with false, and shows on get and list', async () => {
    const plain = await json<KeyObject>(create());
    expect(plain.store_responses).toBe(true);
    const off = await json<KeyObject>(create({ store_responses: false }));
    expect(off.store_responses).toBe(false);
    const on = await json<KeyObject>(create({ store_responses: true }));
    expect(on.store_responses).toBe(true);
    expect((await getKey(off.id)).store_responses).toBe(false);
    const list = await json<{ data: KeyObject[] }>(gateway.admin('GET', '/admin/v1/keys?limit=1000'));
    const listed = new Map(list.data.map((k) => [k.id, k.store_responses]));
    expect([listed.get(plain.id), listed.get(off.id), listed.get(on.id)]).toEqual([true, false, true]);
  });

  it('changes with PATCH, leaves it alone when absent, and is audited', async () => {
    const key = await json<KeyObject>(create());
    const patched = await json<KeyObject>(gateway.admin('PATCH', `/admin/v1/keys/${key.id}`, { store_responses: false }));
    expect(patched.store_responses).toBe(false);
    expect((await getKey(key.id)).store_responses).toBe(false);
    const renamed = await json<KeyObject>(gateway.admin('PATCH', `/admin/v1/keys/${key.id}`, { name: 'renamed' }));
    expect(renamed.store_responses).toBe(false);
    expect((await json<KeyObject>(gateway.admin('PATCH', `/admin/v1/keys/${key.id}`, { store_responses: true }))).store_responses).toBe(
      true,
    );
    const audit = await json<{ data: { action: string; changes: Record<string, unknown> }[] }>(
      gateway.admin('GET', `/admin/v1/audit?target_id=${key.id}`),
    );
    const storage = audit.data.filter((e) => e.action === 'key.updated' && 'store_responses' in e.changes).map((e) => e.changes);
    expect(storage).toEqual([{ store_responses: { from: false, to: true } }, { store_responses: { from: true, to: false } }]);
  });

  it('is refused when it is not a boolean, naming the field', async () => {
    for (const value of ['false', 0, null]) {
      expect(await errorOf(create({ store_responses: value }))).toMatchObject({ status: 422, param: 'store_responses' });
    }
    const key = await json<KeyObject>(create());
    expect(await errorOf(gateway.admin('PATCH', `/admin/v1/keys/${key.id}`, { store_responses: 'no' }))).toMatchObject({
      status: 422,
      param: 'store_responses',
    });
    expect((await getKey(key.id)).store_responses).toBe(true);
  });

  it('keeps stored responses for the configuration’s responses.retention_seconds', async () => {
    const client = new AccountingClient(gateway.accounting.address);
    try {
      const record = (id: string, ageSeconds: number) => ({
        id,
        keyId: 'key_any',
        response: Buffer.from('{"object":"response"}'),
        inputItems: Buffer.from('[]'),
        createdAtMs: Date.now() - ageSeconds * 1000,
      });
      await client.putStoredResponse(record('resp_young0000001', 3590));
      await client.putStoredResponse(record('resp_old000000001', 3610));
      expect(await client.getStoredResponse('key_any', 'resp_young0000001')).toBeDefined();
      expect(await client.getStoredResponse('key_any', 'resp_old000000001')).toBeUndefined();
    } finally {
      client.close();
    }
  });
});
