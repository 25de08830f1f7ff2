import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The secret scan: after the flows an operator and callers go through (chat plain and streamed,
// a refused call, a video job polled and downloaded, a rotation, a revoked key), nothing the
// gateway answered or logged holds an issued key, a provider credential, a provider's signed
// URL or its task id. The scanner is tested on a planted leak first, so a silent scan fails.

const CHAT_CREDENTIAL = 'oa-credential-9f8e7d6c5b4a39281706';
const VIDEO_CREDENTIAL = 'mm-credential-0a1b2c3d4e5f60718293';
const chatSim = new ChatSimulator({ flavor: 'openai', credential: CHAT_CREDENTIAL, models: ['gpt-sim'], record: true });
const videoSim = new VideoSimulator({
  protocol: 'minimax',
  credential: VIDEO_CREDENTIAL,
  models: ['MiniMax-H3'],
  queuedPolls: 1,
  runningPolls: 1,
});

let gateway: TestGateway;
/** Every response the flows got, status line and headers included, except the two that hand a secret out by design. */
const answers: string[] = [];

async function record(response: Response): Promise<Response> {
  const body = await response.clone().text();
  answers.push(`${response.status} ${JSON.stringify([...response.headers.entries()])}\n${body}`);
  return response;
}

/** The secrets found in any of the texts, by name. */
function leaks(texts: readonly string[], secrets: Readonly<Record<string, readonly string[]>>): string[] {
  const found: string[] = [];
  for (const [name, values] of Object.entries(secrets)) {
    for (const value of values)
      if (value.length >= 8 && texts.some((t) => t.includes(value))) found.push(`${name}: ${value.slice(0, 12)}…`);
  }
  return found;
}

beforeAll(async () => {
  const [chatUrl, videoUrl] = [await chatSim.listen(), await videoSim.listen()];
  gateway = await startTestGateway({
    config: parseConfig(
      `
groups:
  - id: s-chat
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${chatUrl}/v1", api_key_env: OA_KEY }]
  - id: s-video
    mode: video
    video: { resolutions: [768P], default_resolution: 768P, seconds: [4, 6], ratios: ["16:9"], image_input: none }
    price: { per_second_by_resolution: { 768P: 0.08 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${videoUrl}", api_key_env: MM_KEY }]
video: { poll_interval_ms: 100 }
`,
      'secrets-test',
    ),
    env: { OA_KEY: CHAT_CREDENTIAL, MM_KEY: VIDEO_CREDENTIAL },
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await chatSim.close();
  await videoSim.close();
});

describe('the secret scan', () => {
  it('finds a planted leak (the scanner works)', () => {
    const planted = [`{"level":"info","msg":"oops","auth":"Bearer ${CHAT_CREDENTIAL}"}`];
    expect(leaks(planted, { credential: [CHAT_CREDENTIAL] })).toEqual([`credential: ${CHAT_CREDENTIAL.slice(0, 12)}…`]);
    expect(leaks(['nothing here'], { credential: [CHAT_CREDENTIAL] })).toEqual([]);
  });

  it('finds no key, credential, signed URL or provider task id in any answer or log line after the flows', async () => {
    const created = (await (await gateway.admin('POST', '/admin/v1/keys', { name: 's', models: ['*'], budget_usd: 10 })).json()) as {
      id: string;
      key: string;
    };
    const call = (path: string, secret: string, init: RequestInit = {}) => gateway.call(path, secret, init).then(record);
    const chat = (secret: string, body: Record<string, unknown>) =>
      call('/v1/chat/completions', secret, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    await (await chat(created.key, { model: 's-chat', messages: [{ role: 'user', content: 'hello' }] })).text();
    await (await chat(created.key, { model: 's-chat', stream: true, messages: [{ role: 'user', content: 'hello' }] })).text();
    await (await chat(created.key, { model: 's-chat', top_p: 'x', messages: [{ role: 'user', content: 'hello' }] })).text();
    chatSim.fail({ status: 500 }, { status: 500 });
    await (await chat(created.key, { model: 's-chat', messages: [{ role: 'user', content: 'fails upstream' }] })).text();

    const job = (await (
      await call('/v1/videos', created.key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 's-video', prompt: 'A kite', seconds: 4 }),
      })
    ).json()) as { id: string };
    await eventually(
      async () => ((await (await call(`/v1/videos/${job.id}`, created.key)).json()) as { status: string }).status === 'completed',
      10_000,
    );
    await (await call(`/v1/videos/${job.id}/content`, created.key)).arrayBuffer();
    await (await call(`/v1/videos/${job.id}/content`, created.key, { headers: { range: 'bytes=0-9' } })).arrayBuffer();
    await (await call('/v1/videos', created.key)).text();

    const rotated = (await (await gateway.admin('POST', `/admin/v1/keys/${created.id}/rotate`, { grace_seconds: 60 })).json()) as {
      key: string;
    };
    await (await call('/v1/usage', created.key)).text();
    await (await call('/v1/usage', rotated.key)).text();
    await record(await gateway.admin('DELETE', `/admin/v1/keys/${created.id}`));
    await (await call('/v1/models', rotated.key)).text();
    await (await call('/v1/models', 'sk-not-a-real-key-000000000000')).text();
    await record(await gateway.admin('GET', '/admin/v1/keys'));
    await record(await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${created.id}`));
    await record(await gateway.admin('GET', '/admin/v1/audit'));

    // What the provider side handed out: its task ids and the signed clip URLs' secrets.
    const taskIds = videoSim.requests
      .map((r) => /video_generation\/([^/?]+)$/.exec(r.path)?.[1])
      .filter((id): id is string => id !== undefined);
    const signatures = videoSim.requests.flatMap((r) => {
      const match = /\/clips\/([0-9a-f]{32})\.mp4\?.*X-Signature=([0-9a-f]+)/.exec(r.path);
      return match ? [match[1] as string, match[2] as string] : [];
    });
    expect(taskIds.length).toBeGreaterThan(0);
    expect(signatures.length).toBeGreaterThan(0);

    const found = leaks([...answers, ...gateway.logs], {
      'issued key': [created.key, rotated.key],
      'admin token': [ADMIN_TOKEN],
      'provider credential': [CHAT_CREDENTIAL, VIDEO_CREDENTIAL],
      'provider task id': taskIds,
      'signed URL': signatures,
    });
    expect(found).toEqual([]);
  }, 60_000);
});
