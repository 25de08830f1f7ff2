import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeatherAgent, weatherFor } from '../clients/agents.js';
import { type CodexHome, makeCodexHome, runCodexExec } from '../clients/codex.js';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Real Responses API clients against the gateway's POST /v1/responses on the demo-chat model, offline:
// the OpenAI Agents SDK running an agent with one function tool, and the Codex CLI (`codex exec`)
// completing a prompt and one exec_command round trip. The demo provider answers a tool call when
// the request offers tools and the last user text holds `[demo:call NAME {json}]`, and quotes a tool
// result when it is the latest item. test/clients/harness.test.ts runs the same clients against a
// capture server (what they send: test/fixtures/codex/, test/clients/README.md).

// The command's output is not in its text, so a quote of the prompt cannot pass for it.
const TOOL_COMMAND = 'echo $((6*7))-from-tool';
const TOOL_OUTPUT = '42-from-tool';

let gateway: TestGateway;
let keyId: string;
let secret: string;
let baseURL: string;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  ({ id: keyId, key: secret } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
  baseURL = `${gateway.url}/v1`;
});
afterAll(async () => {
  if (gateway) await stopTestGateway(gateway);
});

const spent = async () => ((await (await gateway.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { spent_usd: number }).spent_usd;

describe('the OpenAI Agents SDK on /v1/responses', () => {
  for (const stream of [false, true]) {
    it(`runs an agent with one function tool on demo-chat (${stream ? 'streamed' : 'not streamed'})`, async () => {
      const run = await runWeatherAgent({
        baseURL,
        apiKey: secret,
        prompt: 'Use the tool. [demo:call get_weather {"city":"Paris"}]',
        stream,
      });
      expect(run.toolCalls).toEqual([{ city: 'Paris' }]);
      expect(run.itemTypes).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
      // The demo quotes the tool's result: "Tool get_weather returned: ...".
      expect(run.finalOutput).toContain(`Tool get_weather returned: ${weatherFor('Paris')}`);
    }, 60_000);
  }

  it('bills the calls like any other', async () => {
    await eventually(async () => (await spent()) > 0);
  });
});

describe('the Codex CLI on /v1/responses', () => {
  let home: CodexHome;
  beforeAll(async () => {
    home = await makeCodexHome({ baseURL });
  });
  afterAll(async () => {
    await home?.remove();
  });

  it('completes a prompt on demo-chat', async () => {
    const run = await runCodexExec({ home, prompt: 'Say hello to the gateway.', apiKey: secret });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("This is the gateway's demo model answering");
    expect(run.stdout).toContain('Say hello to the gateway.');
    expect(run.lastMessage).toContain("This is the gateway's demo model answering");
  }, 90_000);

  it("runs exec_command on the demo's tool call and answers quoting its output", async () => {
    const run = await runCodexExec({
      home,
      prompt: `Run the command. [demo:call exec_command ${JSON.stringify({ cmd: TOOL_COMMAND })}]`,
      apiKey: secret,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    // Codex ran the command (its transcript on stderr names it and how it ended) ...
    expect(run.stderr).toContain(TOOL_COMMAND);
    expect(run.stderr).toMatch(/succeeded in \d+ms/);
    // ... and the demo's final answer quotes exec_command's output, which the prompt does not hold.
    expect(run.lastMessage).toContain('Tool exec_command returned:');
    expect(run.lastMessage).toContain(TOOL_OUTPUT);
    expect(run.stdout).toContain(TOOL_OUTPUT);
  }, 90_000);
});
