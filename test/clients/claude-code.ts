import { runProcess } from './run-process.js';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Runs the real Claude Code CLI (@anthropic-ai/claude-code, its native binary from the optional
// platform package @anthropic-ai/claude-code-linux-x64; the main package's postinstall, which only
// copies that binary, is not run) in print mode (`claude -p`) against an Anthropic Messages API
// base URL, fully offline: a throwaway HOME and CLAUDE_CONFIG_DIR, the key in ANTHROPIC_API_KEY
// (sent as x-api-key; no login, no confirmation in -p mode), every model alias pointed at one
// model, and the non-essential traffic (api.anthropic.com DNS lookups, HEAD /api/hello) off. See
// test/clients/README.md.

const require = createRequire(import.meta.url);

/** The platform package's native binary (what the main package's bin/claude.exe is a copy of). */
export const claudeBinary = join(dirname(require.resolve('@anthropic-ai/claude-code-linux-x64/package.json')), 'claude');

/**
 * The environment, besides PATH/HOME/CLAUDE_CONFIG_DIR/ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY, that
 * makes `claude -p` call nothing but POST {ANTHROPIC_BASE_URL}/v1/messages?beta=true, once per
 * model step, always with `model` (checked with strace: only 127.0.0.1:PORT, no DNS lookups).
 */
export function claudeCodeEnv(model: string): Record<string, string> {
  return {
    // The one that matters offline: without it Claude Code looks up api.anthropic.com (DNS) and sends
    // HEAD {base URL}/api/hello before the first request.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    // Fail fast in tests rather than retrying a 5xx/429 with back-off.
    CLAUDE_CODE_MAX_RETRIES: '0',
    // Every model slot on the one model, so no side call could name another one.
    ANTHROPIC_MODEL: model,
    ANTHROPIC_SMALL_FAST_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: model,
    ANTHROPIC_DEFAULT_OPUS_MODEL: model,
    ANTHROPIC_DEFAULT_FABLE_MODEL: model,
    CLAUDE_CODE_SUBAGENT_MODEL: model,
  };
}

/** The flags always passed (besides `-p <prompt>` and `--output-format`). */
export const CLAUDE_CODE_FLAGS = [
  // No MCP servers from any config (there are none in the temp HOME; this also ignores a project's .mcp.json).
  '--strict-mcp-config',
  // No transcript under CLAUDE_CONFIG_DIR/projects.
  '--no-session-persistence',
] as const;

export interface ClaudeHome {
  /** Root of the throwaway folders; also HOME for Claude Code and its commands. */
  root: string;
  /** CLAUDE_CONFIG_DIR (settings, .claude.json). */
  configDir: string;
  /** The working directory Claude Code runs in (its Read/Edit tools may use it without asking). */
  workdir: string;
  remove(): Promise<void>;
}

export async function makeClaudeHome(): Promise<ClaudeHome> {
  const root = await mkdtemp(join(tmpdir(), 'claude-client-'));
  const configDir = join(root, 'claude-config');
  const workdir = join(root, 'work');
  await mkdir(configDir);
  await mkdir(workdir);
  return { root, configDir, workdir, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface ClaudeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout: the final answer (text), or one JSON result object (json). */
  stdout: string;
  /** stderr: warnings (e.g. `[claude-code:unrecognized_model]` for a model name it does not know). */
  stderr: string;
  /** With outputFormat 'json': the parsed result object (`result`, `is_error`, `num_turns`, `usage`, ...). */
  json?: ClaudeJsonResult;
}

export interface ClaudeJsonResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
  num_turns: number;
  stop_reason: string | null;
  terminal_reason?: string;
  usage: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ClaudeRunOptions {
  home: ClaudeHome;
  /** The server root, without /v1 (Claude Code posts to `${baseURL}/v1/messages?beta=true`). */
  baseURL: string;
  apiKey: string;
  prompt: string;
  model?: string;
  outputFormat?: 'text' | 'json';
  /** Tools run without asking (--allowedTools). Default ['Read']: reading a file outside the workdir
   * would otherwise be denied in -p mode ("Claude requested permissions to read from …"). */
  allowedTools?: string[];
  timeoutMs?: number;
  extraArgs?: string[];
  extraEnv?: Record<string, string>;
}

/** `claude -p <prompt>` with stdin closed, a minimal environment and a hard timeout (process group killed). */
export async function runClaudePrint(options: ClaudeRunOptions): Promise<ClaudeRun> {
  const { home, prompt } = options;
  const timeoutMs = options.timeoutMs ?? 90_000;
  const outputFormat = options.outputFormat ?? 'text';
  const allowedTools = options.allowedTools ?? ['Read'];
  const args = [
    '-p',
    '--output-format',
    outputFormat,
    ...CLAUDE_CODE_FLAGS,
    ...(allowedTools.length > 0 ? ['--allowedTools', allowedTools.join(',')] : []),
    ...(options.extraArgs ?? []),
    '--',
    prompt,
  ];
  // Nothing of this process's environment leaks in (no ANTHROPIC_AUTH_TOKEN, proxies, real HOME).
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home.root,
    CLAUDE_CONFIG_DIR: home.configDir,
    ANTHROPIC_BASE_URL: options.baseURL,
    ANTHROPIC_API_KEY: options.apiKey,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    ...claudeCodeEnv(options.model ?? 'demo-chat'),
    ...options.extraEnv,
  };
  const run: ClaudeRun = await runProcess(claudeBinary, args, { cwd: home.workdir, env, timeoutMs });
  if (outputFormat === 'json' && run.stdout.trim() !== '') {
    try {
      run.json = JSON.parse(run.stdout) as ClaudeJsonResult;
    } catch {
      // left undefined: the caller sees stdout
    }
  }
  return run;
}
