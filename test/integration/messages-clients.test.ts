import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaudeHome, makeClaudeHome, runClaudePrint } from '../clients/claude-code.js';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The real Claude Code CLI (`claude -p`, 2.1.328) against the gateway's Anthropic Messages API
// (POST /v1/messages?beta=true, streamed) on the demo-chat model, offline: it completes a prompt
// with exactly one billed call, and runs one Read round trip (the demo answers a tool_use when the
// last user text holds `[demo:call NAME {json}]`, and quotes a tool_result: "Tool Read returned:
// ..."). Claude Code authenticates with `x-api-key`. test/clients/harness.test.ts runs the same
// runner against a capture server (what it sends: test/fixtures/claude-code/, test/clients/README.md).

let gateway: TestGateway;
let home: ClaudeHome;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  home = await makeClaudeHome();
});
afterAll(async () => {
  await home?.remove();
  if (gateway) await stopTestGateway(gateway);
});

/** A fresh key, so its spend-log rows are this test's calls only. */
const newKey = () => gateway.createKey({ models: ['*'], budget_usd: 1 });

const spendRows = async (keyId: string) =>
  (
    (await (await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}&limit=1000`)).json()) as {
      data: { id: string; kind: string }[];
    }
  ).data;

/** Waits until the key has `count` spend-log rows (billing is asynchronous), then checks no more arrive. */
async function expectBilledCalls(keyId: string, count: number): Promise<void> {
  await eventually(async () => (await spendRows(keyId)).length >= count, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await spendRows(keyId)).toHaveLength(count);
}

describe('Claude Code (claude -p) on /v1/messages', () => {
  it('completes a prompt on demo-chat with exactly one billed call', async () => {
    const { id, key } = await newKey();
    const run = await runClaudePrint({ home, baseURL: gateway.url, apiKey: key, prompt: 'Say hello to the gateway.' });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    // The demo's answer. Its quote is of the last user message's text, which Claude Code starts with
    // a 577-character <system-reminder> block (its commit attribution notice), so the quote may not
    // reach the prompt; the next test sends the prompt alone.
    expect(run.stdout).toContain(`This is the gateway's demo model answering "`);
    expect(run.stdout).toContain('No provider was called');
    await expectBilledCalls(id, 1);
  }, 120_000);

  it('quotes the prompt when it is the whole user message (attribution notice off), one billed call, JSON output', async () => {
    const { id, key } = await newKey();
    const run = await runClaudePrint({
      home,
      baseURL: gateway.url,
      apiKey: key,
      prompt: 'Say hello to the gateway.',
      outputFormat: 'json',
      // Without the notice Claude Code sends the first user message's content as a plain string.
      extraEnv: { CLAUDE_CODE_ATTRIBUTION_ANNOUNCEMENT: '0' },
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.json, run.stdout).toMatchObject({ type: 'result', subtype: 'success', is_error: false, num_turns: 1 });
    expect(run.json?.result).toContain(`This is the gateway's demo model answering "Say hello to the gateway."`);
    // Claude Code read the usage from the stream (message_start / message_delta).
    expect(run.json?.usage.input_tokens).toBeGreaterThan(0);
    expect(run.json?.usage.output_tokens).toBeGreaterThan(0);
    await expectBilledCalls(id, 1);
  }, 120_000);

  it("runs Read on the demo's tool_use and answers quoting the file, one billed call per model step", async () => {
    const { id, key } = await newKey();
    // The token is only in the file, so a quote of the prompt cannot pass for it.
    const token = `gateway-read-token-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const file = join(home.workdir, 'note.txt');
    await writeFile(file, `${token}\n`);
    const run = await runClaudePrint({
      home,
      baseURL: gateway.url,
      apiKey: key,
      prompt: `Read it. [demo:call Read ${JSON.stringify({ file_path: file })}]`,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    // Claude Code's Read returns the file `cat -n` style ("1\t<line>"); the demo quotes it.
    expect(run.stdout).toContain('Tool Read returned:');
    expect(run.stdout).toContain(token);
    // Two model steps (tool_use, then the answer to the tool_result): two billed calls, no side calls.
    await expectBilledCalls(id, 2);
  }, 120_000);

  it('lists the models in the Anthropic shape, as Claude Code asks with gateway model discovery on', async () => {
    const { key } = await newKey();
    // The request Claude Code sends (test/fixtures/claude-code/models-request.json).
    const response = await fetch(`${gateway.url}/v1/models?limit=1000`, {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'user-agent': 'claude-code/2.1.328' },
    });
    expect(response.status).toBe(200);
    const list = (await response.json()) as { data: Record<string, unknown>[]; has_more: boolean };
    expect(list.has_more).toBe(false);
    expect(list.data).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'model', id: 'demo-chat' })]));
    for (const model of list.data) {
      expect(model).toMatchObject({
        type: 'model',
        id: expect.any(String),
        display_name: expect.any(String),
        created_at: expect.any(String),
      });
    }
    const run = await runClaudePrint({
      home,
      baseURL: gateway.url,
      apiKey: key,
      prompt: 'Say hello.',
      extraEnv: { CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' },
    });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`This is the gateway's demo model answering "`);
  }, 120_000);
});
