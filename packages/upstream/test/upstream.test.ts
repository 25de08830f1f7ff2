import { parseConfig, type DeploymentConfig, type GroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { Router, UpstreamFailure, isRetryable, parseRetryAfter, sanitizeUpstreamMessage } from '@gateway/upstream';
import { describe, expect, it } from 'vitest';

const config = parseConfig(
  `
groups:
  - id: main
    mode: chat
    max_input_tokens: 10
    max_output_tokens: 10
    fallbacks: [spare]
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments:
      - { provider: openai, model: a, api_base: "http://a", api_key_env: A, weight: 3 }
      - { provider: openai, model: b, api_base: "http://b", api_key_env: A, weight: 1 }
      - { provider: openai, model: c, api_base: "http://c", api_key_env: UNSET }
  - id: spare
    mode: chat
    max_input_tokens: 10
    max_output_tokens: 10
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: z, api_base: "http://z", api_key_env: A }]
router: { retries: 1, allowed_fails: 3, cooldown_seconds: 10 }
`,
  'upstream-test',
);
const groups = new Map(config.groups.map((g) => [g.id, g]));
const main = groups.get('main') as GroupConfig;
const env = { A: 'x' };

/** A seeded generator, so the spread test is repeatable. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const path = (attempts: Iterable<{ group: GroupConfig; deployment: { model: string } }>) =>
  [...attempts].map((a) => `${a.group.id}/${a.deployment.model}`);

describe('Router: choice by weight', () => {
  it('splits 1,000 new choices by weight within 10%', () => {
    const router = new Router(config.router, groups, env, () => 0, seeded(7));
    const counts: Record<string, number> = { a: 0, b: 0 };
    for (let i = 0; i < 1000; i += 1) {
      const first = router.attempts(main).next().value;
      counts[first?.deployment.model ?? '?'] = (counts[first?.deployment.model ?? '?'] ?? 0) + 1;
    }
    // Weights 3:1 → 750 and 250; 10% of the expected share either way.
    expect(Math.abs((counts.a ?? 0) - 750)).toBeLessThanOrEqual(75);
    expect(Math.abs((counts.b ?? 0) - 250)).toBeLessThanOrEqual(25);
  });

  it('retries on another served deployment of the group (c has no credential), then the fallbacks after the group', () => {
    const router = new Router(
      config.router,
      groups,
      env,
      () => 0,
      () => 0.1,
    );
    expect(path(router.attempts(main))).toEqual(['main/a', 'main/b', 'spare/z', 'spare/z']);
    // A fallback the request does not fit is left out.
    expect(path(router.attempts(main, (g) => g.id !== 'spare'))).toEqual(['main/a', 'main/b']);
  });
});

describe('Router: cooldown', () => {
  it('skips a deployment for cooldown_seconds after allowed_fails consecutive failures', () => {
    let now = 0;
    const router = new Router(
      config.router,
      groups,
      env,
      () => now,
      () => 0.1,
    );
    const a = main.deployments[0]!;
    router.failed(a);
    router.failed(a);
    router.succeeded(a); // a success in between starts the count again
    router.failed(a);
    router.failed(a);
    expect(router.isCooledDown(a)).toBe(false);
    router.failed(a);
    expect(router.isCooledDown(a)).toBe(true);
    expect(path(router.attempts(main))).toEqual(['main/b', 'main/b', 'spare/z', 'spare/z']);
    now += 10_001;
    expect(router.isCooledDown(a)).toBe(false);
  });

  it('route() counts retryable failures, moves on, and answers from the last failure', async () => {
    const router = new Router(
      config.router,
      groups as ReadonlyMap<string, GroupConfig>,
      env,
      () => 0,
      () => 0.1,
    );
    const tried: string[] = [];
    const routed = await router.route(main, async (attempt) => {
      tried.push(attempt.deployment.model);
      if (attempt.group.id === 'main') throw new UpstreamFailure('status', { status: 500 });
      return 'ok';
    });
    expect(tried).toEqual(['a', 'b', 'z']);
    expect(routed.attempt.group.id).toBe('spare');
    await expect(
      router.route(main, async () => {
        throw new UpstreamFailure('status', { status: 429, retryAfterSeconds: 7 });
      }),
    ).rejects.toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 7 });
  });

  it("route() stops at a failure another deployment cannot fix, and never retries the gateway's own errors", async () => {
    const router = new Router(
      config.router,
      groups,
      env,
      () => 0,
      () => 0.1,
    );
    let calls = 0;
    await expect(
      router.route(main, async () => {
        calls += 1;
        throw new UpstreamFailure('status', { status: 400, callerMessage: 'bad size', subject: 'provider' });
      }),
    ).rejects.toMatchObject({ code: 'upstream_bad_request', message: 'The provider rejected the request: bad size' });
    expect(calls).toBe(1);
    expect(router.isCooledDown(main.deployments[0]!)).toBe(false);
    await expect(
      router.route(main, async () => {
        throw new GatewayError('internal_error');
      }),
    ).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('answers no_healthy_upstream when no deployment of the group or its fallbacks is served', async () => {
    const router = new Router(config.router, groups, {}, () => 0);
    await expect(router.route(main, async () => 'ok')).rejects.toMatchObject({ code: 'no_healthy_upstream' });
  });
});

describe('Router: no outage of its own', () => {
  const spare = groups.get('spare') as GroupConfig;

  it("never cools down a group's last usable deployment: its callers get the upstream's failure, and its recovery at once", async () => {
    let now = 0;
    const router = new Router(
      { ...config.router, allowedFails: 1 },
      groups,
      env,
      () => now,
      () => 0.1,
    );
    const [a, b] = main.deployments as [DeploymentConfig, DeploymentConfig];
    router.failed(a);
    expect(router.isCooledDown(a)).toBe(true);
    // b is now the last of main not cooling down: it stays, however often it fails.
    for (let i = 0; i < 5; i += 1) router.failed(b);
    expect(router.isCooledDown(b)).toBe(false);
    const z = spare.deployments[0] as DeploymentConfig;
    for (let i = 0; i < 5; i += 1) router.failed(z);
    expect(router.isCooledDown(z)).toBe(false);
    // A burst of 500s on a one-deployment group: every caller gets the upstream's 502, never 503.
    for (let i = 0; i < 6; i += 1) {
      await expect(
        router.route(spare, async () => {
          throw new UpstreamFailure('status', { status: 500 });
        }),
      ).rejects.toMatchObject({ code: 'upstream_error' });
    }
    // And the moment it recovers, it serves: no cooldown to sit out.
    expect((await router.route(spare, async () => 'ok')).result).toBe('ok');
    now += 10_001;
    expect(router.isCooledDown(a)).toBe(false);
  });

  it('pauses a deployment for exactly its 429 Retry-After, without counting it towards a cooldown', async () => {
    let now = 0;
    const router = new Router(config.router, groups, env, () => now);
    let calls = 0;
    const limited = () =>
      router.route(spare, async () => {
        calls += 1;
        throw new UpstreamFailure('status', { status: 429, retryAfterSeconds: 2 });
      });
    await expect(limited()).rejects.toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 2 });
    // The retry did not call it again: it asked for a pause.
    expect(calls).toBe(1);
    // Callers within the pause get 429 with the time left, and nothing is sent upstream.
    now += 1_200;
    await expect(router.route(spare, async () => 'ok')).rejects.toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 1 });
    now += 900;
    expect((await router.route(spare, async () => 'ok')).result).toBe('ok');
    // Many such 429s never cool it down.
    for (let i = 0; i < 10; i += 1) {
      now += 2_001;
      await limited().catch(() => undefined);
    }
    expect(router.isCooledDown(spare.deployments[0] as DeploymentConfig)).toBe(false);
  });

  it('sends the calls to the other deployments while one is paused', async () => {
    const now = 0;
    const router = new Router(
      config.router,
      groups,
      env,
      () => now,
      () => 0.1,
    );
    const [a] = main.deployments as [DeploymentConfig];
    router.failed(a, new UpstreamFailure('status', { status: 429, retryAfterSeconds: 30 }));
    expect(router.isRateLimited(a)).toBe(true);
    expect(path(router.attempts(main))).toEqual(['main/b', 'main/b', 'spare/z', 'spare/z']);
  });
});

describe('the retry rule', () => {
  it('retries connect errors, timeouts, unreadable answers, 429, 5xx, 401/403/408; no other 4xx', () => {
    for (const kind of ['connect', 'timeout', 'protocol'] as const) expect(isRetryable(kind, undefined)).toBe(true);
    for (const status of [429, 500, 502, 503, 504, 401, 403, 408]) expect(isRetryable('status', status)).toBe(true);
    for (const status of [400, 404, 409, 413, 422]) expect(isRetryable('status', status)).toBe(false);
  });

  it('maps failures to what the caller is told, with a stable code', () => {
    expect(new UpstreamFailure('timeout').toGatewayError().code).toBe('upstream_timeout');
    expect(new UpstreamFailure('connect').code).toBe('upstream_connect');
    expect(new UpstreamFailure('status', { status: 503 }).toGatewayError().code).toBe('upstream_error');
    expect(new UpstreamFailure('status', { status: 403 }).toGatewayError().code).toBe('upstream_error');
    expect(new UpstreamFailure('status', { status: 422, callerMessage: 'no' }).toGatewayError().message).toBe(
      'The upstream rejected the request: no',
    );
  });

  it('reads Retry-After and cleans upstream messages', () => {
    expect(parseRetryAfter('2.5')).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(sanitizeUpstreamMessage({ error: { message: 'see https://x.example/a with key sk-abcdefghijkl' } })).toBe(
      'see [url] with [redacted]',
    );
  });
});

describe('Router: health as the admin API shows it', () => {
  it('names every served deployment in config order, its state, recent failures and the last one', async () => {
    let now = 1_000_000;
    const router = new Router(
      config.router,
      groups,
      env,
      () => now,
      () => 0.1,
    );
    const spare = groups.get('spare') as GroupConfig;
    expect(router.health().map((d) => [d.group, d.index, d.model, d.state, d.recentFailures, d.lastFailure])).toEqual([
      ['main', 0, 'a', 'healthy', 0, null],
      ['main', 1, 'b', 'healthy', 0, null],
      ['spare', 0, 'z', 'healthy', 0, null],
    ]);

    // a fails three times in a row (allowed_fails: 3): cooling down for 10 s; each call is served by b.
    for (let i = 0; i < 3; i += 1) {
      await router.route(main, async ({ deployment }) => {
        if (deployment.model === 'a') throw new UpstreamFailure('timeout');
        return 'ok';
      });
    }
    // z asks for a pause of 5 s.
    await expect(
      router.route(spare, async () => {
        throw new UpstreamFailure('status', { status: 429, retryAfterSeconds: 5 });
      }),
    ).rejects.toMatchObject({ code: 'upstream_rate_limited' });
    const [a, b, z] = router.health();
    expect(a).toMatchObject({
      state: 'cooling_down',
      untilMs: now + 10_000,
      recentFailures: 3,
      lastFailure: { kind: 'timeout', atMs: now },
    });
    expect(b).toMatchObject({ state: 'healthy', untilMs: 0, recentFailures: 0, consecutiveFailures: 0 });
    // Paused, it gets no second try: one failure.
    expect(z).toMatchObject({ state: 'rate_limited', untilMs: now + 5000, recentFailures: 1 });

    // Past the cooldown and the five-minute window: healthy, no recent failures, the last one remembered.
    now += 5 * 60_000 + 1;
    const [later] = router.health();
    expect(later).toMatchObject({
      state: 'healthy',
      untilMs: 0,
      recentFailures: 0,
      lastFailure: { kind: 'timeout', atMs: now - 5 * 60_000 - 1 },
    });
  });
});
