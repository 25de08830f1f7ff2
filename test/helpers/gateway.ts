import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startGateway, type RunningGateway } from '@gateway/cli';
import { exampleConfigPath, loadConfig, type GatewayConfig } from '@gateway/config';
import { createLogger } from '@gateway/logging';

// Starts the real gateway (all four services, in this process, on free ports) with a fresh data
// folder and every log line captured, so tests can assert what was and was not logged.

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestGateway extends RunningGateway {
  dataDir: string;
  logs: string[];
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  call(path: string, secret?: string, init?: RequestInit): Promise<Response>;
  createKey(body: {
    name?: string;
    models: string[];
    budget_usd?: number;
    rpm?: number;
    tpm?: number;
    budget_period?: 'daily' | 'weekly' | 'monthly' | null;
    expires_at?: number | null;
    team_id?: string | null;
    metadata?: Record<string, string>;
  }): Promise<{ id: string; key: string }>;
}

export interface StartOptions {
  env?: Record<string, string>;
  config?: GatewayConfig;
  dataDir?: string;
  /** Accounting's clock (budget periods, expiry, rotation grace). */
  clock?: () => number;
}

export async function startTestGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'gateway-it-')));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const env = {
    GATEWAY_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    DEEPSEEK_API_KEY: 'test-deepseek-credential',
    ...options.env,
  };
  const config = options.config ?? (await loadConfig(exampleConfigPath));
  // Metrics on a free port of their own, as METRICS_PORT would put them (many gateways run at once here).
  const gateway = await startGateway({
    config,
    logger,
    env,
    metrics: { host: '127.0.0.1', port: 0 },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const call = (path: string, secret?: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, {
      ...init,
      headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...(init.headers as Record<string, string> | undefined) },
    });
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${gateway.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
  const createKey: TestGateway['createKey'] = async (body) => {
    const response = await admin('POST', '/admin/v1/keys', { name: 'test', budget_usd: 10, ...body });
    if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; key: string };
  };
  return { ...gateway, dataDir, logs, admin, call, createKey };
}

export async function stopTestGateway(gateway: TestGateway, { keepData = false } = {}): Promise<void> {
  await gateway.close();
  if (!keepData) await rm(gateway.dataDir, { recursive: true, force: true });
}

/** Every file in a folder as one string, to search for what must not be stored. */
export async function folderText(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')))).join('\n');
}

export { eventually } from './wait.js';
