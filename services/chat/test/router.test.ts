import { parseConfig, type ChatGroupConfig } from '@gateway/config';
import { describe, expect, it } from 'vitest';
import { Router } from '@gateway/upstream';

const config = parseConfig(
  `
groups:
  - id: main
    mode: chat
    max_input_tokens: 10
    max_output_tokens: 10
    fallbacks: [backup]
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments:
      - { provider: openai, model: a, api_base: "http://a", api_key_env: A, weight: 3 }
      - { provider: openai, model: b, api_base: "http://b", api_key_env: B, weight: 1 }
      - { provider: openai, model: c, api_base: "http://c", api_key_env: UNSET }
  - id: backup
    mode: chat
    max_input_tokens: 10
    max_output_tokens: 10
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: z, api_base: "http://z", api_key_env: A }]
router: { retries: 1, allowed_fails: 2, cooldown_seconds: 30 }
`,
  'router-test',
);
const groups = new Map(config.groups.map((g) => [g.id, g as ChatGroupConfig]));
const main = groups.get('main') as ChatGroupConfig;
const env = { A: 'x', B: 'y' };

describe('Router', () => {
  it('tries served deployments only, weighted, then retries on another, then the fallback group', () => {
    const router = new Router(
      config.router,
      groups,
      env,
      () => 0,
      () => 0.1,
    );
    expect([...router.attempts(main)].map((a) => `${a.group.id}/${a.deployment.model}`)).toEqual([
      'main/a',
      'main/b',
      'backup/z',
      'backup/z',
    ]);
    const counts = { a: 0, b: 0 };
    let seed = 0;
    const spread = new Router(
      config.router,
      groups,
      env,
      () => 0,
      () => (seed = (seed * 9301 + 49297) % 233280) / 233280,
    );
    for (let i = 0; i < 4000; i += 1) counts[spread.attempts(main).next().value?.deployment.model as 'a' | 'b'] += 1;
    expect(counts.a / 4000).toBeGreaterThan(0.7);
    expect(counts.a / 4000).toBeLessThan(0.8);
  });

  it('cools a deployment down after consecutive failures, and a success resets the count', () => {
    let now = 1000;
    const router = new Router(
      config.router,
      groups,
      env,
      () => now,
      () => 0.1,
    );
    const a = main.deployments[0]!;
    router.failed(a);
    router.succeeded(a);
    router.failed(a);
    expect(router.isCooledDown(a)).toBe(false);
    router.failed(a);
    expect(router.isCooledDown(a)).toBe(true);
    expect([...router.attempts(main)].map((x) => x.deployment.model)).toEqual(['b', 'b', 'z', 'z']);
    now += 30_001;
    expect(router.isCooledDown(a)).toBe(false);
  });

  it('answers no_healthy_upstream when nothing can serve', () => {
    const router = new Router(
      config.router,
      groups,
      { B: 'y' },
      () => 0,
      () => 0.1,
    );
    const b = main.deployments[1]!;
    router.failed(b);
    router.failed(b);
    expect(() => [...router.attempts(main)]).toThrow(expect.objectContaining({ code: 'no_healthy_upstream' }));
  });
});
