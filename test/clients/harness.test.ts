import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeatherAgent, weatherFor } from './agents.js';
import { type CaptureServer, type CapturedRequest, demoLikeReply, inputItems, startCaptureServer } from './capture-server.js';
import { type CodexHome, makeCodexHome, runCodexExec } from './codex.js';

// The real clients (Codex CLI and the OpenAI Agents SDK) against the capture server, offline: proves
// the harness in test/clients runs them end to end without the gateway, and what they send.
// CAPTURE_FIXTURES=1 also writes what they sent to test/fixtures/codex/ (see test/clients/README.md).

const capture = process.env.CAPTURE_FIXTURES === '1';
const fixtures = fileURLToPath(new URL('../fixtures/codex/', import.meta.url));

async function saveFixture(name: string, value: unknown): Promise<void> {
  if (!capture) return;
  await mkdir(fixtures, { recursive: true });
  await writeFile(`${fixtures}${name}`, `${JSON.stringify(value, null, 2)}\n`);
}

function responsesPosts(server: CaptureServer, from: number): CapturedRequest[] {
  return server.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/responses');
}

// The command's output is not in its text, so a quote of the prompt cannot pass for it.
const TOOL_COMMAND = 'echo $((6*7))-from-tool';
const TOOL_OUTPUT = '42-from-tool';
const TOOL_PROMPT = `Run the command. [demo:call exec_command ${JSON.stringify({ cmd: TOOL_COMMAND })}]`;

describe('Codex CLI against the capture server', () => {
  let server: CaptureServer;
  let home: CodexHome;
  beforeAll(async () => {
    server = await startCaptureServer({
      reply: (body) => {
        const answer = demoLikeReply(body);
        // With the function call, a reasoning item (summary + encrypted_content), to see how Codex replays it.
        return answer.kind === 'function_call'
          ? { ...answer, reasoning: { summary: 'I should run the command.', encryptedContent: 'gAAAA-capture-opaque' } }
          : answer;
      },
    });
    home = await makeCodexHome({ baseURL: server.baseURL });
  });
  afterAll(async () => {
    await home?.remove();
    await server?.close();
  });

  it('completes a plain prompt with one streamed Responses call', async () => {
    const from = server.requests.length;
    const run = await runCodexExec({ home, prompt: 'Say hello.', apiKey: 'sk-capture-test' });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello from the capture server');
    expect(run.lastMessage).toContain('hello from the capture server');
    const requests = server.requests.slice(from);
    // Offline: Codex asks the provider for nothing but /v1/responses.
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/responses']);
    const [first] = requests as [CapturedRequest];
    const body = first.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'demo-chat', stream: true, store: false, include: ['reasoning.encrypted_content'] });
    const tools = body.tools as { type: string; name?: string }[];
    expect(tools.map((t) => t.type)).toEqual(expect.arrayContaining(['function', 'namespace', 'web_search']));
    expect(tools.find((t) => t.name === 'exec_command')).toBeDefined();
    expect(first.headers.authorization).toBeUndefined();
    await saveFixture('first-request.json', body);
    await saveFixture('first-request-headers.json', first.headers);
  }, 90_000);

  it('runs exec_command on a function call and sends its output back', async () => {
    const from = server.requests.length;
    const run = await runCodexExec({ home, prompt: TOOL_PROMPT, apiKey: 'sk-capture-test' });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(TOOL_COMMAND);
    expect(run.stderr).toMatch(/succeeded in \d+ms/);
    expect(run.lastMessage).toContain('The tool answered:');
    expect(run.lastMessage).toContain(TOOL_OUTPUT);
    const posts = responsesPosts(server, from);
    expect(posts).toHaveLength(2);
    const second = posts[1] as CapturedRequest;
    const items = inputItems(second.body as Record<string, unknown>);
    const tail = items.slice(-3);
    expect(tail.map((item) => item.type)).toEqual(['reasoning', 'function_call', 'function_call_output']);
    expect(tail[0]).toMatchObject({ encrypted_content: 'gAAAA-capture-opaque' });
    expect(tail[1]).toMatchObject({ name: 'exec_command', arguments: JSON.stringify({ cmd: TOOL_COMMAND }) });
    expect(tail[2]?.call_id).toBe(tail[1]?.call_id);
    expect(String(tail[2]?.output)).toContain(TOOL_OUTPUT);
    await saveFixture('tool-call-first-request.json', posts[0]?.body);
    await saveFixture('tool-turn-request.json', second.body);
    await saveFixture('tool-turn-request-headers.json', second.headers);
  }, 90_000);
});

describe('OpenAI Agents SDK against the capture server', () => {
  let server: CaptureServer;
  beforeAll(async () => {
    server = await startCaptureServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const stream of [false, true]) {
    it(`runs one function tool and answers with its result (${stream ? 'streamed' : 'not streamed'})`, async () => {
      const from = server.requests.length;
      const run = await runWeatherAgent({
        baseURL: server.baseURL,
        apiKey: 'sk-capture-test',
        prompt: 'Use the tool. [demo:call get_weather {"city":"Paris"}]',
        stream,
      });
      expect(run.toolCalls).toEqual([{ city: 'Paris' }]);
      expect(run.finalOutput).toContain(weatherFor('Paris'));
      expect(run.itemTypes).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
      const requests = server.requests.slice(from);
      // Nothing but the two Responses calls: no tracing export, no model list.
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/responses', 'POST /v1/responses']);
      const [first, second] = requests as [CapturedRequest, CapturedRequest];
      expect(first.body).toMatchObject({ model: 'demo-chat', ...(stream ? { stream: true } : {}) });
      const items = inputItems(second.body as Record<string, unknown>);
      expect(items.slice(-2).map((item) => item.type)).toEqual(['function_call', 'function_call_output']);
      const suffix = stream ? 'streamed' : 'plain';
      await saveFixture(`agents-sdk-first-request-${suffix}.json`, first.body);
      await saveFixture(`agents-sdk-tool-turn-request-${suffix}.json`, second.body);
      await saveFixture(`agents-sdk-request-headers-${suffix}.json`, first.headers);
    }, 60_000);
  }
});

describe('the Codex runner', () => {
  it('kills codex exec when its time is up (a provider that never answers)', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer(() => {
      // never answers
    });
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const home = await makeCodexHome({ baseURL: `http://127.0.0.1:${port}/v1` });
    try {
      const started = Date.now();
      const run = await runCodexExec({ home, prompt: 'Say hello.', apiKey: 'sk-capture-test', timeoutMs: 4_000 });
      expect(run.timedOut).toBe(true);
      expect(run.signal ?? run.exitCode).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await home.remove();
    }
  }, 30_000);
});
