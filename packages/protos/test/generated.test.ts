import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loaderOptions, protos } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const checkedIn = join(root, 'packages/protos/src/generated');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('generated proto types', () => {
  it('match what proto-loader-gen-types makes from proto/ today (run `npm run gen:protos` when this fails)', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'gateway-protos-'));
    try {
      execFileSync(process.execPath, [join(root, 'scripts/gen-protos.mjs'), fresh], { cwd: root, stdio: 'pipe' });
      const expected = files(fresh)
        .map((f) => relative(fresh, f))
        .sort();
      expect(
        files(checkedIn)
          .map((f) => relative(checkedIn, f))
          .sort(),
      ).toEqual(expected);
      for (const file of expected) {
        expect(readFileSync(join(checkedIn, file), 'utf8'), file).toBe(readFileSync(join(fresh, file), 'utf8'));
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('are generated with the options the runtime loader uses', () => {
    const json = JSON.parse(readFileSync(join(root, 'packages/protos/loader-options.json'), 'utf8')) as Record<string, unknown>;
    expect(loaderOptions).toMatchObject({ keepCase: json.keepCase, defaults: json.defaults, oneofs: json.oneofs });
    expect(loaderOptions.longs).toBe(json.longs === 'Number' ? Number : String);
    expect(loaderOptions.enums).toBe(String);
  });

  it('load every service of the contracts, with buf-style names', () => {
    const all = protos();
    expect(Object.keys(all.gateway.accounting.v1.AccountingService.service)).toEqual([
      'AuthenticateKey',
      'CreateKey',
      'ListKeys',
      'GetKey',
      'RevokeKey',
      'GetUsage',
      'ReserveBudget',
      'ReleaseReservation',
      'ReserveBudgets',
      'LeaseBudget',
      'UpdateKey',
      'RotateKey',
      'CreateTeam',
      'ListTeams',
      'GetTeam',
      'UpdateTeam',
      'DeleteTeam',
      'ListSpendLogs',
      'GetDailySpend',
      'GetTopSpenders',
      'ListAuditEvents',
      'PutStoredResponse',
      'GetStoredResponse',
      'DeleteStoredResponse',
    ]);
    expect(Object.keys(all.gateway.chat.v1.ChatService.service)).toEqual([
      'ListModels',
      'CreateChatCompletion',
      'StreamChatCompletion',
      'CreateResponse',
      'StreamResponse',
      'CreateAnthropicMessage',
      'StreamAnthropicMessage',
      'CountAnthropicTokens',
      'GetUpstreamHealth',
    ]);
    expect(Object.keys(all.gateway.video.v1.VideoService.service)).toEqual([
      'ListModels',
      'CreateVideo',
      'GetVideo',
      'ResolveVideoContent',
      'ListVideos',
      'DeleteVideo',
      'ListAllVideos',
      'GetUpstreamHealth',
    ]);
    expect(all.grpc.health.v1.Health.service.Check.path).toBe('/grpc.health.v1.Health/Check');
    for (const service of [
      all.gateway.accounting.v1.AccountingService,
      all.gateway.chat.v1.ChatService,
      all.gateway.video.v1.VideoService,
    ]) {
      for (const [name, definition] of Object.entries(service.service)) {
        // proto-loader adds the message types to each method definition.
        const method = definition as unknown as { requestType: { type: { name: string } }; responseType: { type: { name: string } } };
        expect(method.requestType.type.name).toBe(`${name}Request`);
        expect(method.responseType.type.name).toBe(`${name}Response`);
      }
    }
  });
});
