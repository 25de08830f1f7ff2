import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeatherAgent, weatherFor } from './agents.js';
import {
  type CaptureServer,
  type CapturedRequest,
  contentBlocks,
  demoLikeMessagesReply,
  demoLikeReply,
  inputItems,
  messagesOf,
  startCaptureServer,
} from './capture-server.js';
import { type ClaudeHome, makeClaudeHome, runClaudePrint } from './claude-code.js';
import { type CodexHome, makeCodexHome, runCodexExec } from './codex.js';

// The real clients (Codex CLI and the OpenAI Agents SDK) against the capture server, offline: proves
// the harness in test/clients runs them end to end without the gateway, and what they send.
// Claude Code (`claude -p`) runs against the same server's POST /v1/messages.
// CAPTURE_FIXTURES=1 also writes what they sent to test/fixtures/codex/ and test/fixtures/claude-code/
// (see test/clients/README.md).

const capture = process.env.CAPTURE_FIXTURES === '1';
const fixtures = fileURLToPath(new URL('../fixtures/codex/', import.meta.url));
const claudeFixtures = fileURLToPath(new URL('../fixtures/claude-code/', import.meta.url));

async function saveFixture(name: string, value: unknown, folder = fixtures): Promise<void> {
  if (!capture) return;
  await mkdir(folder, { recursive: true });
  await writeFile(`${folder}${name}`, `${JSON.stringify(value, null, 2)}\n`);
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

describe('Claude Code (claude -p) against the capture server', () => {
  let server: CaptureServer;
  let home: ClaudeHome;
  // The thinking block the server puts before a tool_use, by prompt: an opaque signature, or none ('').
  const signatures = new Map<string, string>();
  beforeAll(async () => {
    server = await startCaptureServer({
      messagesReply: (body) => {
        const answer = demoLikeMessagesReply(body);
        if (answer.kind !== 'tool_use') return answer;
        const prompt = JSON.stringify(body.messages);
        for (const [marker, signature] of signatures) {
          if (prompt.includes(marker)) return { ...answer, thinking: { thinking: 'I should read the file.', signature } };
        }
        return answer;
      },
    });
    home = await makeClaudeHome();
  });
  afterAll(async () => {
    await home?.remove();
    await server?.close();
  });

  const save = (name: string, value: unknown) => saveFixture(name, value, claudeFixtures);
  const run = (prompt: string, extra: Partial<Parameters<typeof runClaudePrint>[0]> = {}) =>
    runClaudePrint({ home, baseURL: server.url, apiKey: 'sk-capture-test', prompt, ...extra });

  it('completes a plain prompt with exactly one streamed Messages call', async () => {
    const from = server.requests.length;
    const result = await run('Say hello.');
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('hello from the capture server');
    const requests = server.requests.slice(from);
    // Offline and one call per turn: nothing but POST /v1/messages?beta=true (no HEAD /api/hello,
    // no title/topic/quota call, no count_tokens, no GET /v1/models).
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages?beta=true']);
    const [first] = requests as [CapturedRequest];
    expect(first.credentialHeaders).toEqual(['x-api-key']);
    expect(first.headers).toMatchObject({ 'anthropic-version': '2023-06-01', 'x-app': 'cli' });
    expect(first.headers['anthropic-beta']?.split(',')).toContain('claude-code-20250219');
    expect(first.headers['user-agent']).toMatch(/^claude-cli\/2\.1\.328 /);
    const body = first.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'context_management',
        'max_tokens',
        'messages',
        'metadata',
        'model',
        'output_config',
        'stream',
        'system',
        'thinking',
        'tools',
      ].sort(),
    );
    expect(body).toMatchObject({ model: 'demo-chat', stream: true, max_tokens: 32000, thinking: { type: 'adaptive' } });
    const tools = body.tools as { name: string; input_schema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write']));
    const read = tools.find((t) => t.name === 'Read');
    expect(read?.input_schema).toMatchObject({ type: 'object', required: ['file_path'] });
    // The user's prompt, then a role "system" message (the environment) inside `messages`.
    const messages = messagesOf(body);
    expect(messages.map((m) => m.role)).toEqual(['user', 'system']);
    expect(contentBlocks(messages[0]).at(-1)).toMatchObject({ type: 'text', text: 'Say hello.' });
    await save('first-request.json', body);
    await save('first-request-headers.json', first.headers);
  }, 120_000);

  it('sends the first user message as a plain string when the attribution notice is off', async () => {
    const before = server.messagesRequests().length;
    const result = await run('Say hello.', {
      extraEnv: { CLAUDE_CODE_ATTRIBUTION_ANNOUNCEMENT: '0', CLAUDE_CODE_ATTRIBUTION_HEADER: '0' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const posts = server.messagesRequests().slice(before);
    expect(posts).toHaveLength(1);
    const body = posts[0]?.body as Record<string, unknown>;
    // No <system-reminder> block: the content is the prompt itself, a string.
    expect(messagesOf(body)[0]).toEqual({ role: 'user', content: 'Say hello.' });
    // CLAUDE_CODE_ATTRIBUTION_HEADER=0: no "x-anthropic-billing-header: ..." text block first in `system`.
    const system = body.system as { text: string }[];
    expect(system.some((block) => block.text.startsWith('x-anthropic-billing-header'))).toBe(false);
    await save('first-request-no-attribution.json', body);
  }, 120_000);

  it('prints one JSON result with --output-format json', async () => {
    const before = server.messagesRequests().length;
    const result = await run('Say hello in JSON.', { outputFormat: 'json' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ type: 'result', subtype: 'success', is_error: false, num_turns: 1 });
    expect(result.json?.result).toBe('hello from the capture server');
    expect(server.messagesRequests().length - before).toBe(1);
    await save('json-result.json', result.json);
  }, 120_000);

  for (const [label, signature] of [
    ['an opaque signature', 'sig-capture-opaque'],
    ['an empty signature', ''],
  ] as const) {
    it(`runs Read on a tool_use (after a thinking block with ${label}) and sends the tool_result back`, async () => {
      const token = `claude-token-${signature === '' ? 'nosig' : 'sig'}-${Date.now()}`;
      const file = join(home.workdir, `${token}.txt`);
      await writeFile(file, `${token}\n`);
      signatures.set(token, signature);
      const from = server.messagesRequests().length;
      const result = await run(`Read it. [demo:call Read ${JSON.stringify({ file_path: file })}]`);
      expect(result.timedOut, result.stderr).toBe(false);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain('The tool answered:');
      expect(result.stdout).toContain(token);
      const posts = server.messagesRequests().slice(from);
      expect(posts).toHaveLength(2);
      const second = posts[1] as CapturedRequest;
      const messages = messagesOf(second.body as Record<string, unknown>);
      expect(messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user']);
      const assistant = contentBlocks(messages[2]);
      // The thinking block comes back as received (signature "" included), then the tool_use.
      expect(assistant).toEqual([
        { type: 'thinking', thinking: 'I should read the file.', signature },
        { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'Read', input: { file_path: file } },
      ]);
      const results = contentBlocks(messages[3]);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ type: 'tool_result', tool_use_id: assistant[1]?.id, cache_control: { type: 'ephemeral' } });
      // cat -n style: "1\t<line>".
      expect(results[0]?.content).toBe(`1\t${token}\n2\t`);
      if (signature === '') {
        await save('tool-turn-request-empty-signature.json', second.body);
      } else {
        await save('tool-call-first-request.json', posts[0]?.body);
        await save('tool-turn-request.json', second.body);
        await save('tool-turn-request-headers.json', second.headers);
      }
    }, 120_000);
  }

  it('lists models with GET /v1/models?limit=1000 when gateway model discovery is on', async () => {
    const from = server.requests.length;
    const result = await run('Say hello.', { extraEnv: { CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const requests = server.requests.slice(from);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models?limit=1000', 'POST /v1/messages?beta=true']);
    const [models] = requests as [CapturedRequest];
    expect(models.headers['anthropic-version']).toBe('2023-06-01');
    expect(models.credentialHeaders).toEqual(['x-api-key']);
    await save('models-request.json', { method: models.method, path: models.path, headers: models.headers });
  }, 120_000);
});

describe('the Claude Code runner', () => {
  it('kills claude -p when its time is up (a server that never answers)', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer(() => {
      // never answers
    });
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const home = await makeClaudeHome();
    try {
      const started = Date.now();
      const run = await runClaudePrint({
        home,
        baseURL: `http://127.0.0.1:${port}`,
        apiKey: 'sk-capture-test',
        prompt: 'Say hello.',
        timeoutMs: 4_000,
      });
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
