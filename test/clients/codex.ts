import { runProcess } from './run-process.js';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Runs the real Codex CLI (@openai/codex, its native binary from the optional platform package
// @openai/codex-linux-x64) non-interactively against a Responses API base URL, fully offline:
// a throwaway CODEX_HOME whose config.toml names a custom model provider (wire_api = "responses",
// key from an env var, so no login), no approvals and no sandbox, and everything that would reach
// the internet off (plugins: api.github.com and chatgpt.com; analytics: ab.chatgpt.com; update
// check; feedback; OpenTelemetry). See test/clients/README.md.

const require = createRequire(import.meta.url);

/** The entry script of the pinned CLI; it execs the platform binary. */
export const codexEntry = require.resolve('@openai/codex/bin/codex.js');

export const CODEX_ENV_KEY = 'GATEWAY_API_KEY';

export interface CodexConfigOptions {
  /** The provider's base URL, ending in /v1 (Codex posts to `${baseURL}/responses`). */
  baseURL: string;
  model?: string;
  /** Codex's web_search setting: by default it offers the hosted `web_search` tool ("live" sends
   * external_web_access: true); "disabled" leaves it out of `tools`. */
  webSearch?: 'disabled' | 'cached' | 'live';
}

/** The config.toml that makes `codex exec` run offline against `baseURL`. */
export function codexConfigToml(options: CodexConfigOptions): string {
  const lines = [
    `model = ${JSON.stringify(options.model ?? 'demo-chat')}`,
    'model_provider = "gateway"',
    // No approvals and no sandbox: the commands run as they are (bwrap may not work in a container).
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
  ];
  if (options.webSearch) lines.push(`web_search = ${JSON.stringify(options.webSearch)}`);
  lines.push(
    '',
    '[model_providers.gateway]',
    'name = "AI gateway"',
    `base_url = ${JSON.stringify(options.baseURL)}`,
    'wire_api = "responses"',
    `env_key = "${CODEX_ENV_KEY}"`,
    // Fail fast in tests rather than retrying a broken answer.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 30000',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[otel]',
    'exporter = "none"',
    '',
    '[history]',
    'persistence = "none"',
    '',
    '[features]',
    // plugins: the marketplace sync looks up api.github.com and chatgpt.com at startup.
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    '',
  );
  return lines.join('\n');
}

export interface CodexHome {
  /** Root of the throwaway folders; also HOME for Codex and its shell commands. */
  root: string;
  /** CODEX_HOME, holding config.toml. */
  codexHome: string;
  /** The working directory Codex runs in. */
  workdir: string;
  remove(): Promise<void>;
}

export async function makeCodexHome(options: CodexConfigOptions): Promise<CodexHome> {
  const root = await mkdtemp(join(tmpdir(), 'codex-client-'));
  const codexHome = join(root, 'codex-home');
  const workdir = join(root, 'work');
  await mkdir(codexHome);
  await mkdir(workdir);
  await writeFile(join(codexHome, 'config.toml'), codexConfigToml(options));
  return { root, codexHome, workdir, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface CodexRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout: the final agent message. */
  stdout: string;
  /** stderr: the transcript (config summary, user prompt, exec lines, warnings). */
  stderr: string;
  /** The final agent message as written by --output-last-message ('' when none). */
  lastMessage: string;
}

export interface CodexRunOptions {
  home: CodexHome;
  prompt: string;
  apiKey: string;
  timeoutMs?: number;
  extraArgs?: string[];
}

/** `codex exec` with the prompt as an argument, stdin closed, a hard timeout (process group killed). */
export async function runCodexExec(options: CodexRunOptions): Promise<CodexRun> {
  const { home, prompt, apiKey } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const lastMessageFile = join(home.root, 'last-message.txt');
  await rm(lastMessageFile, { force: true });
  const args = [
    codexEntry,
    'exec',
    '--skip-git-repo-check',
    '--ephemeral',
    '--strict-config',
    '--color',
    'never',
    '-C',
    home.workdir,
    '-o',
    lastMessageFile,
    ...(options.extraArgs ?? []),
    prompt,
  ];
  // A minimal environment: no OPENAI_API_KEY or proxy settings leak in, and HOME is the temp root
  // (a login shell on the real HOME can take seconds, and Codex runs commands with `bash -lc`).
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home.root,
    CODEX_HOME: home.codexHome,
    [CODEX_ENV_KEY]: apiKey,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
  const run = await runProcess(process.execPath, args, { cwd: home.workdir, env, timeoutMs });
  const lastMessage = await readFile(lastMessageFile, 'utf8').catch(() => '');
  return { ...run, lastMessage };
}
