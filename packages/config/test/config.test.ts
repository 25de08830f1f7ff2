import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDecimal, ratesAt, tokenCost, worstCaseTokenCost } from '@gateway/pricing';
import {
  type ChatGroupConfig,
  ConfigError,
  exampleConfigPath,
  GroupIndex,
  loadConfig,
  parseConfig,
  servedGroups,
  type ConfigIssue,
} from '../src/index.js';

function issuesOf(yaml: string): ConfigIssue[] {
  try {
    parseConfig(yaml, 'test.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected the configuration to be rejected');
}

const chat = (extra = '') => `
  - id: c1
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: openai, model: m, api_base: "http://127.0.0.1:1", api_key_env: C1_KEY }]${extra}`;

describe('the shipped example configuration', () => {
  it("has the specification's five groups with exact prices, and the demo groups", async () => {
    const config = await loadConfig(exampleConfigPath);
    expect(config.groups.map((g) => g.id)).toEqual([
      'demo-chat',
      'demo-video',
      'gamma-flash',
      'gamma-v4-pro',
      'alpha-h3',
      'alpha-h3-max',
      'beta-dance',
    ]);
    const flash = new GroupIndex(config.groups).resolve('flash');
    expect(flash?.id).toBe('gamma-flash');
    const flashPeak = { input: { units: 28n, scale: 2 }, cacheHit: { units: 56n, scale: 4 }, output: { units: 56n, scale: 2 } };
    expect(flash?.mode === 'chat' && flash.price).toEqual({
      kind: 'per_token',
      base: { input: { units: 14n, scale: 2 }, cacheHit: { units: 28n, scale: 4 }, output: { units: 28n, scale: 2 } },
      windows: [
        { utc: '01:00-04:00', startMinute: 60, endMinute: 240, rates: flashPeak },
        { utc: '06:00-10:00', startMinute: 360, endMinute: 600, rates: flashPeak },
      ],
    });
    const pro = config.groups.find((g) => g.id === 'gamma-v4-pro');
    expect(pro?.mode === 'chat' && pro.price.base).toEqual({
      input: { units: 435n, scale: 3 },
      cacheHit: { units: 3625n, scale: 6 },
      output: { units: 87n, scale: 2 },
    });
    const dance = config.groups.find((g) => g.id === 'beta-dance');
    expect(dance?.mode === 'video' && dance.price).toEqual({
      kind: 'per_token',
      nanosByResolution: { '480p': 10_700, '720p': 10_700, '1080p': 11_700 },
    });
    const h3 = config.groups.find((g) => g.id === 'alpha-h3');
    expect(h3?.mode === 'video' && h3.video).toMatchObject({
      minSeconds: 4,
      maxSeconds: 15,
      defaultResolution: '768P',
      imageInput: 'first_frame',
    });
    expect(h3?.mode === 'video' && h3.price.nanosByResolution).toEqual({ '768P': 80_000_000, '2K': 130_000_000 });
    expect(config.server).toEqual({
      bodyLimitBytes: 16 * 1024 * 1024,
      keyCacheTtlMs: 1000,
      modelsCacheTtlMs: 5000,
      reservationMaxAgeMs: 6 * 3600 * 1000,
      shutdownGraceMs: 610_000,
      shutdownDelayMs: 0,
      maxStreamMs: 600_000,
      stallTimeoutMs: 60_000,
      pingIntervalMs: 10_000,
      downloadsPerKey: 8,
    });
  });

  it('serves a group only while one of its credential variables is set and non-empty', async () => {
    const config = await loadConfig(exampleConfigPath);
    // The demo groups need no credential: they are always served.
    expect(servedGroups(config, undefined, {}).map((g) => g.id)).toEqual(['demo-chat', 'demo-video']);
    expect(servedGroups(config, undefined, { DEEPSEEK_API_KEY: '  ' }).map((g) => g.id)).toEqual(['demo-chat', 'demo-video']);
    expect(servedGroups(config, undefined, { DEEPSEEK_API_KEY: 'x' }).map((g) => g.id)).toEqual([
      'demo-chat',
      'demo-video',
      'gamma-flash',
      'gamma-v4-pro',
    ]);
    expect(servedGroups(config, 'video', { DEEPSEEK_API_KEY: 'x', ARK_API_KEY: 'y' }).map((g) => g.id)).toEqual([
      'demo-video',
      'beta-dance',
    ]);
  });
});

describe('configuration errors', () => {
  it('lists every structural error with its path', () => {
    const issues = issuesOf(`
groups:
  - id: bad
    mode: audio
    colour: blue
    price: {}
    deployments: [{ provider: openai, model: m, api_base: "ftp://x", api_key_env: "1X" }]
  - mode: chat
    price: {}
    deployments: []
`);
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'groups[0].mode',
        'groups[0]',
        'groups[0].deployments[0].api_base',
        'groups[0].deployments[0].api_key_env',
        'groups[1]',
        'groups[1].deployments',
      ]),
    );
    expect(issues.find((i) => i.path === 'groups[0].mode')?.message).toBe('must be one of chat, video');
    expect(issues.find((i) => i.path === 'groups[0]')?.message).toBe('unknown field "colour"');
  });

  it('lists every cross-field error at once', () => {
    const issues = issuesOf(`
groups:${chat()}
  - id: c2
    mode: chat
    aliases: [c1]
    fallbacks: [nowhere, v1, c2]
    price: { input_per_mtok: 0.0375, per_second_by_resolution: { 480P: 1 } }
    deployments: [{ provider: openai, model: m, api_base: "http://x", api_key_env: K }]
  - id: v1
    mode: video
    reasoning: { default_effort: high }
    video: { resolutions: [480P, 720P], default_resolution: 1080P, seconds: [9, 4], ratios: ["16:9"] }
    price: { per_second_by_resolution: { 480P: 0.05, 4K: 1 } }
    deployments: [{ provider: minimax, model: m, api_base: "http://x", api_key_env: K }]
`);
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(byPath['groups[1].aliases[0]']).toBe('"c1" is already used at groups[0].id');
    expect(byPath['groups[1].max_input_tokens']).toBe('is required for a chat group');
    expect(byPath['groups[1].price.output_per_mtok']).toBe('is required for a chat group');
    // Chat prices take any number of decimals now; only the missing output price is an error.
    expect(byPath['groups[1].price.input_per_mtok']).toBeUndefined();
    expect(byPath['groups[1].price.per_second_by_resolution']).toMatch(/only video groups/);
    expect(byPath['groups[1].fallbacks[0]']).toBe('no group with id "nowhere"');
    expect(byPath['groups[1].fallbacks[1]']).toMatch(/same mode/);
    expect(byPath['groups[1].fallbacks[2]']).toMatch(/itself/);
    expect(byPath['groups[2].reasoning']).toMatch(/only chat groups/);
    expect(byPath['groups[2].video.seconds']).toMatch(/min <= max/);
    expect(byPath['groups[2].video.default_resolution']).toMatch(/480P, 720P/);
    expect(byPath['groups[2].price.per_second_by_resolution.720P']).toMatch(/needs a price/);
    expect(byPath['groups[2].price.per_second_by_resolution.4K']).toMatch(/not one of/);
  });

  it("refuses a video fallback that could never take one of the group's jobs, naming its path", () => {
    const video = (id: string, resolution: string, fallbacks = '[]') => `
  - id: ${id}
    mode: video
    fallbacks: ${fallbacks}
    video: { resolutions: [${resolution}], default_resolution: ${resolution}, seconds: [4, 8], ratios: ["16:9"] }
    price: { per_second_by_resolution: { ${resolution}: 0.05 } }
    deployments: [{ provider: minimax, model: m, api_base: "http://x", api_key_env: K }]`;
    const issues = issuesOf(`groups:${video('v1', '480P', '[v2, v3]')}${video('v2', '1080P')}${video('v3', '480P')}\n`);
    expect(issues).toEqual([
      { path: 'groups[0].fallbacks[0]', message: '"v2" shares no resolution with this group, so it could never take one of its jobs' },
    ]);
  });

  it('reports YAML syntax errors with their line', () => {
    const issues = issuesOf('groups:\n  - id: [unclosed\n');
    expect(issues[0]?.path).toMatch(/^line \d+$/);
  });

  it('rejects an empty or non-object document', () => {
    expect(issuesOf('').map((i) => i.message)).toEqual(['must have required properties groups']);
    expect(issuesOf('- 1\n- 2\n')[0]?.message).toBe('must be object');
  });

  it('says which file and every issue in its message', () => {
    try {
      parseConfig('groups: [{ id: x }]', '/etc/gateway.yaml');
    } catch (error) {
      expect((error as Error).message).toMatch(/^invalid configuration in \/etc\/gateway\.yaml:\n {2}- groups\[0\]: /);
      expect((error as ConfigError).code).toBe('config_invalid');
    }
  });

  it('accepts a minimal chat group and fills defaults', () => {
    const config = parseConfig(`groups:${chat()}\nserver: { key_cache_ttl_ms: 0 }\n`, 'x');
    const group = config.groups[0];
    expect(group).toMatchObject({ id: 'c1', aliases: [], fallbacks: [], created: 0, imageInput: false, reasoning: undefined });
    expect(group?.deployments[0]).toMatchObject({ weight: 1, apiBase: 'http://127.0.0.1:1', timeoutMs: undefined });
    expect(config.server.keyCacheTtlMs).toBe(0);
    expect(issuesOf(`groups:${chat()}\nserver: { key_cache_ttl_ms: 5000 }\n`)[0]?.path).toBe('server.key_cache_ttl_ms');
  });

  it('loads a config without a responses section with storage on for the video retention', () => {
    const config = parseConfig(`groups:${chat()}\n`, 'x');
    expect(config.responses).toEqual({ store: true, retentionSeconds: 604_800 });
    expect(config.responses.retentionSeconds).toBe(config.video.retentionSeconds);
    const off = parseConfig(`groups:${chat()}\nresponses: { store: false, retention_seconds: 3600 }\n`, 'x');
    expect(off.responses).toEqual({ store: false, retentionSeconds: 3600 });
    const paths = issuesOf(`groups:${chat()}\nresponses: { store: "no", retention_seconds: 0, keep: 1 }\n`).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['responses.store', 'responses.retention_seconds']));
  });

  it('keeps the shipped example and the specification in step', () => {
    const text = readFileSync(exampleConfigPath, 'utf8');
    for (const group of ['gamma-flash', 'gamma-v4-pro', 'alpha-h3', 'alpha-h3-max', 'beta-dance']) expect(text).toContain(`id: ${group}`);
  });
});

const chatGroupOf = (price: string): ChatGroupConfig => {
  const group = parseConfig(`groups:${chat().replace('{ input_per_mtok: 0.14, output_per_mtok: 0.28 }', price)}\n`, 'x').groups[0];
  if (group?.mode !== 'chat') throw new Error('expected a chat group');
  return group;
};
const dec = (n: number) => parseDecimal(n);

describe('chat prices', () => {
  it('loads an old price unchanged: the cache-hit price is the input price, no windows', () => {
    const group = chatGroupOf('{ input_per_mtok: 0.14, output_per_mtok: 0.28 }');
    expect(group.price).toEqual({ kind: 'per_token', base: { input: dec(0.14), cacheHit: dec(0.14), output: dec(0.28) }, windows: [] });
    expect(tokenCost({ prompt_tokens: 1000, cached_tokens: 500, completion_tokens: 100 }, group.price.base)).toEqual({
      costNanoUsd: 168_000,
      cacheSavedNanoUsd: 0,
    });
  });

  it('takes any number of decimals, exponents included', () => {
    const group = chatGroupOf('{ input_per_mtok: 0.003625, input_cache_hit_per_mtok: 1e-7, output_per_mtok: 0.0375 }');
    expect(group.price.base).toEqual({ input: dec(0.003625), cacheHit: { units: 1n, scale: 7 }, output: dec(0.0375) });
  });

  it("fills a window's omitted prices from the base", () => {
    const group = chatGroupOf(`
      input_per_mtok: 1
      input_cache_hit_per_mtok: 0.1
      output_per_mtok: 2
      windows:
        - { utc: "22:00-02:00", output_per_mtok: 3 }
        - { utc: "12:00-13:00", input_per_mtok: 5 }`);
    const [night, noon] = group.price.windows;
    expect(night).toEqual({
      utc: '22:00-02:00',
      startMinute: 1320,
      endMinute: 120,
      rates: { input: dec(1), cacheHit: dec(0.1), output: dec(3) },
    });
    // The base cache-hit price is inherited as it is, not scaled with the window's input price.
    expect(noon?.rates).toEqual({ input: dec(5), cacheHit: dec(0.1), output: dec(2) });
    expect(ratesAt(group.price, Date.UTC(2026, 0, 1, 23, 0))).toBe(night?.rates);
    expect(worstCaseTokenCost(group.price, 1000, 1000)).toBe(5000 * 1000 + 3000 * 1000);
  });

  it('gives a window with no cache-hit price anywhere no discount: its own input price', () => {
    const group = chatGroupOf('{ input_per_mtok: 1, output_per_mtok: 2, windows: [{ utc: "01:00-04:00", input_per_mtok: 2 }] }');
    expect(group.price.windows[0]?.rates.cacheHit).toEqual(dec(2));
  });

  it('lists every problem of the prices and windows with its path', () => {
    const issues = issuesOf(`
groups:${chat()}
  - id: c2
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price:
      input_per_mtok: 1
      input_cache_hit_per_mtok: 1.5
      output_per_mtok: 2
      windows:
        - { utc: "1:00-04:00" }
        - { utc: "04:00-04:00" }
        - { utc: "24:00-01:00" }
        - { utc: "01:00-04:00", input_per_mtok: 2, input_cache_hit_per_mtok: 3 }
        - { utc: "03:00-05:00" }
        - { utc: "23:00-01:30" }
        - { utc: "10:00-10:01" }
    deployments: [{ provider: openai, model: m, api_base: "http://x", api_key_env: K }]
  - id: c3
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price:
      input_per_mtok: 1
      input_cache_hit_per_mtok: 0.5
      output_per_mtok: 2
      windows: [{ utc: "01:00-04:00", input_per_mtok: 0.25 }, { utc: "05:00-06:00", input_per_mtok: 0.75 }]
    deployments: [{ provider: openai, model: m, api_base: "http://x", api_key_env: K }]
`);
    expect(issues).toEqual([
      { path: 'groups[1].price.input_cache_hit_per_mtok', message: 'must not be above the input price (1)' },
      ...['[0]', '[1]', '[2]'].map((i) => ({
        path: `groups[1].price.windows${i}.utc`,
        message: 'must be "HH:MM-HH:MM" in UTC, from 00:00 to 24:00, starting before 24:00, start and end different',
      })),
      { path: 'groups[1].price.windows[3].input_cache_hit_per_mtok', message: 'must not be above the input price (2)' },
      {
        path: 'groups[1].price.windows[4].utc',
        message: 'overlaps windows[3] (01:00-04:00); at most one window may apply at a time',
      },
      {
        path: 'groups[1].price.windows[5].utc',
        message: 'overlaps windows[3] (01:00-04:00); at most one window may apply at a time',
      },
      {
        path: 'groups[2].price.windows[0].input_per_mtok',
        message: 'is below the cache-hit price the window inherits (0.5); give the window its own input_cache_hit_per_mtok',
      },
    ]);
  });

  it('refuses negative prices, window fields on video groups, and prices that overflow a call', () => {
    const negative = issuesOf(
      `groups:${chat().replace('input_per_mtok: 0.14', 'input_per_mtok: 0.14, windows: [{ utc: "01:00-02:00", output_per_mtok: -1 }]')}\n`,
    );
    expect(negative.map((i) => i.path)).toEqual(['groups[0].price.windows[0].output_per_mtok']);
    const video = issuesOf(`
groups:
  - id: v1
    mode: video
    video: { resolutions: [480P], default_resolution: 480P, seconds: [4, 8], ratios: ["16:9"] }
    price: { per_second_by_resolution: { 480P: 0.05 }, input_cache_hit_per_mtok: 0.1, windows: [] }
    deployments: [{ provider: minimax, model: m, api_base: "http://x", api_key_env: K }]
`);
    expect(video.map((i) => i.path)).toEqual(['groups[0].price.input_cache_hit_per_mtok', 'groups[0].price.windows']);
    const huge = issuesOf(`groups:${chat().replace('output_per_mtok: 0.28', 'output_per_mtok: 1e12')}\n`);
    expect(huge).toEqual([
      { path: 'groups[0].price', message: 'a call at max_input_tokens and max_output_tokens would cost over 9 million USD' },
    ]);
  });
});
