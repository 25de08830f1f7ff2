import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';
import { mp4Facts } from '../helpers/mp4.js';

// The README's first-call section, run as a newcomer would copy it, against a gateway on the
// shipped example configuration with no vendor credential: the only change is the port.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The code blocks of the README's "First call" section, in order, with their language. */
async function firstCallBlocks(): Promise<{ lang: string; code: string }[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### First call'), readme.indexOf('\n## ', readme.indexOf('### First call')));
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? '', code: m[2] ?? '' }));
}

let gateway: TestGateway;
let blocks: { lang: string; code: string }[];
let work: string;
let key: string;

const local = (code: string) => code.replaceAll('http://127.0.0.1:4000', gateway.url);
const block = (lang: string, marker: string) => {
  const found = blocks.find((b) => b.lang === lang && b.code.includes(marker));
  if (!found) throw new Error(`the README's first-call section has no ${lang} block with ${marker}`);
  return local(found.code);
};
const bash = (code: string, env: Record<string, string> = {}) =>
  run('bash', ['-euo', 'pipefail', '-c', code], { cwd: work, env: { ...process.env, ADMIN_TOKEN, ...env }, timeout: 60_000 });

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  blocks = await firstCallBlocks();
  work = await mkdtemp(join(tmpdir(), 'gateway-readme-'));
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await rm(work, { recursive: true, force: true });
});

describe("the README's first calls, copied as written", () => {
  it('creates a key with the admin API', async () => {
    const { stdout } = await bash(block('sh', '/admin/v1/keys'));
    const created = JSON.parse(stdout) as { key: string; budget_usd: number };
    expect(created.budget_usd).toBe(25);
    key = created.key;
  });

  it('lists the demo models, answers a chat call and a stream, and shows the usage', async () => {
    // The `export KEY=sk-...` line stands for pasting the secret; the environment gives it.
    const code = block('sh', 'export KEY=').replace(/^export KEY=.*$/m, '');
    const { stdout } = await bash(code, { KEY: key });
    expect(stdout).toContain('"id":"demo-chat"');
    expect(stdout).toContain('"id":"demo-video"');
    expect(stdout).toMatch(/"object":"chat\.completion".*"content":"This is the gateway's demo model/);
    expect(stdout).toContain('"object":"chat.completion.chunk"');
    expect(stdout).toContain('data: [DONE]');
    expect(stdout).toMatch(/"spent_usd":\d/);
  });

  it('makes a video with curl and downloads a playable clip', async () => {
    const { stdout } = await bash(block('sh', '/v1/videos'), { KEY: key });
    expect(stdout).toMatch(/"status":"completed".*"size":"1280x720"/);
    expect(mp4Facts(await readFile(join(work, 'demo.mp4')))).toMatchObject({ width: 1280, height: 720, seconds: 4, codec: 'avc1' });
  });

  it('does all of it with the openai SDK', async () => {
    await rm(join(work, 'demo.mp4'));
    // In the repository folder, as the README says, so that `openai` resolves from its node_modules.
    const script = join(root, 'node_modules', '.cache', 'readme-test', 'first-call.mjs');
    await mkdir(dirname(script), { recursive: true });
    await writeFile(script, block('js', 'new OpenAI('));
    const { stdout } = await run(process.execPath, [script], { cwd: work, env: { ...process.env, KEY: key }, timeout: 60_000 });
    expect(stdout).toContain('demo-chat chat');
    expect(stdout).toContain('demo-video video');
    expect(stdout).toContain("This is the gateway's demo model");
    expect(stdout).toMatch(/in_progress \d+/);
    expect(stdout).toMatch(/video_\w+ 1280x720 4 saved to demo\.mp4/);
    expect(mp4Facts(await readFile(join(work, 'demo.mp4')))).toMatchObject({ width: 1280, height: 720, seconds: 4 });
  });
});
