import { Compile } from '@gateway/typebox';
import { parseDocument } from 'yaml';
import {
  compareDecimal,
  type Decimal,
  formatDecimal,
  nanosFromUnitPrice,
  nanosPerTokenFromMtokPrice,
  parseDecimal,
  parseUtcWindow,
  type TokenPrice,
  type TokenPriceWindow,
  type TokenRates,
  worstCaseTokenCost,
} from '@gateway/pricing';
import { ConfigSchema, type RawConfig, type RawGroup, type RawPrice } from './schema.js';
import {
  type ChatGroupConfig,
  type ConfigIssue,
  DEMO_PROVIDER,
  type DeploymentConfig,
  type GatewayConfig,
  type GroupConfig,
  type ResponsesConfig,
  type VideoGroupConfig,
  type VideoServiceConfig,
} from './types.js';

/** The configuration could not be used; `issues` lists every problem found, each with its path. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'config_invalid';
  readonly issues: readonly ConfigIssue[];
  /** The file (or name) the configuration came from. */
  readonly source: string;

  constructor(source: string, issues: readonly ConfigIssue[]) {
    super(`invalid configuration in ${source}:\n${issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n')}`);
    this.issues = issues;
    this.source = source;
  }
}

const checker = Compile(ConfigSchema);

export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
export const DEFAULT_KEY_CACHE_TTL_MS = 1000;
export const DEFAULT_MODELS_CACHE_TTL_MS = 5000;
/** OpenAI's own clients give up on a call after 10 minutes. */
export const DEFAULT_MAX_STREAM_SECONDS = 600;
/** After the last stream ends: its usage reaches accounting and the outbox drains. */
const SETTLE_SECONDS = 10;
export const DEFAULT_VIDEO = { pollIntervalMs: 3000, maxConcurrentPolls: 8, retentionSeconds: 7 * 24 * 3600, timeoutMs: 30_000 } as const;
/** Stored responses are kept as long as video jobs by default. */
export const DEFAULT_RESPONSES = { store: true, retentionSeconds: DEFAULT_VIDEO.retentionSeconds } as const;
export const DEFAULT_ROUTER = { retries: 1, allowedFails: 3, cooldownMs: 30_000, timeoutMs: 600_000 } as const;

/** Parses and validates a YAML configuration, listing every error; never returns a partial config. */
export function parseConfig(text: string, source: string): GatewayConfig {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      source,
      document.errors.map((e) => ({
        path: e.linePos ? `line ${e.linePos[0].line}` : '',
        message: e.message.split('\n')[0] ?? e.message,
      })),
    );
  }
  const raw: unknown = document.toJS() ?? {};
  if (!checker.Check(raw)) {
    throw new ConfigError(source, schemaIssues(raw));
  }
  return normalize(raw, source);
}

function schemaIssues(raw: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  for (const error of checker.Errors(raw)[1]) {
    // "schema is false" repeats what the additionalProperties error on the parent says.
    if (error.keyword === 'boolean') continue;
    let message = error.message;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      message = `unknown field${params.additionalProperties.length > 1 ? 's' : ''} ${params.additionalProperties.map((p) => `"${String(p)}"`).join(', ')}`;
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => String(v)).join(', ')}`;
    }
    const issue = { path: toPath(error.instancePath), message };
    const id = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      issues.push(issue);
    }
  }
  return issues;
}

/** `/groups/0/deployments/1/model` → `groups[0].deployments[1].model` */
function toPath(pointer: string): string {
  let path = '';
  for (const part of pointer.split('/').slice(1)) {
    const segment = part.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path ? `.${segment}` : segment;
  }
  return path;
}

function normalize(raw: RawConfig, source: string): GatewayConfig {
  const issues: ConfigIssue[] = [];
  const names = new Map<string, string>();
  const groups: GroupConfig[] = [];

  raw.groups.forEach((group, index) => {
    const path = `groups[${index}]`;
    for (const [name, where] of [
      [group.id, `${path}.id`] as const,
      ...(group.aliases ?? []).map((a, i) => [a, `${path}.aliases[${i}]`] as const),
    ]) {
      const first = names.get(name);
      if (first) issues.push({ path: where, message: `"${name}" is already used at ${first}` });
      else names.set(name, where);
    }
    group.deployments.forEach((d, i) => {
      if (d.provider === DEMO_PROVIDER) return;
      if (d.api_base === undefined)
        issues.push({ path: `${path}.deployments[${i}].api_base`, message: 'is required (all but the demo provider call an upstream)' });
      if (d.api_key_env === undefined)
        issues.push({
          path: `${path}.deployments[${i}].api_key_env`,
          message: 'is required (all but the demo provider need a credential)',
        });
    });
    const normalized = group.mode === 'chat' ? chatGroup(group, path, issues) : videoGroup(group, path, issues);
    if (normalized) groups.push(normalized);
  });

  const byId = new Map(raw.groups.map((g) => [g.id, g]));
  raw.groups.forEach((group, index) => {
    (group.fallbacks ?? []).forEach((fallback, i) => {
      const where = `groups[${index}].fallbacks[${i}]`;
      const target = byId.get(fallback);
      if (!target) issues.push({ path: where, message: `no group with id "${fallback}"` });
      else if (target.id === group.id) issues.push({ path: where, message: 'a group cannot fall back to itself' });
      else if (target.mode !== group.mode)
        issues.push({ path: where, message: `"${fallback}" is a ${target.mode} group; fallbacks must have the same mode` });
      // A video fallback renders the request exactly as the group resolved it, so one sharing no
      // resolution with the group could never serve and would have no effect.
      else if (group.video && target.video && !group.video.resolutions.some((r) => target.video?.resolutions.includes(r))) {
        issues.push({ path: where, message: `"${fallback}" shares no resolution with this group, so it could never take one of its jobs` });
      }
    });
  });

  if (issues.length > 0) throw new ConfigError(source, issues);
  const server = raw.server ?? {};
  const maxStreamSeconds = server.max_stream_seconds ?? DEFAULT_MAX_STREAM_SECONDS;
  const router = raw.router ?? {};
  return {
    video: videoSettings(raw.video ?? {}),
    responses: responsesSettings(raw.responses ?? {}),
    router: {
      retries: router.retries ?? DEFAULT_ROUTER.retries,
      allowedFails: router.allowed_fails ?? DEFAULT_ROUTER.allowedFails,
      cooldownMs: router.cooldown_seconds === undefined ? DEFAULT_ROUTER.cooldownMs : Math.round(router.cooldown_seconds * 1000),
      timeoutMs: router.timeout_ms ?? DEFAULT_ROUTER.timeoutMs,
    },
    groups,
    source,
    server: {
      // Long enough for the slowest chat stream or video job to settle normally.
      reservationMaxAgeMs: (server.reservation_max_age_seconds ?? 6 * 3600) * 1000,
      bodyLimitBytes: server.body_limit_bytes ?? DEFAULT_BODY_LIMIT_BYTES,
      keyCacheTtlMs: server.key_cache_ttl_ms ?? DEFAULT_KEY_CACHE_TTL_MS,
      modelsCacheTtlMs: server.models_cache_ttl_ms ?? DEFAULT_MODELS_CACHE_TTL_MS,
      // Long enough for the longest stream allowed to finish, and for its usage to settle.
      shutdownGraceMs: (server.shutdown_grace_seconds ?? maxStreamSeconds + SETTLE_SECONDS) * 1000,
      shutdownDelayMs: (server.shutdown_delay_seconds ?? 0) * 1000,
      maxStreamMs: maxStreamSeconds * 1000,
      stallTimeoutMs: (server.stall_timeout_seconds ?? 60) * 1000,
      pingIntervalMs: server.ping_interval_ms ?? 10_000,
      downloadsPerKey: server.downloads_per_key ?? 8,
    },
  };
}

function videoSettings(video: NonNullable<RawConfig['video']>): VideoServiceConfig {
  return {
    pollIntervalMs: video.poll_interval_ms ?? DEFAULT_VIDEO.pollIntervalMs,
    maxConcurrentPolls: video.max_concurrent_polls ?? DEFAULT_VIDEO.maxConcurrentPolls,
    retentionSeconds: video.retention_seconds ?? DEFAULT_VIDEO.retentionSeconds,
    timeoutMs: video.timeout_ms ?? DEFAULT_VIDEO.timeoutMs,
  };
}

function responsesSettings(responses: NonNullable<RawConfig['responses']>): ResponsesConfig {
  return {
    store: responses.store ?? DEFAULT_RESPONSES.store,
    retentionSeconds: responses.retention_seconds ?? DEFAULT_RESPONSES.retentionSeconds,
  };
}

function deployments(group: RawGroup): DeploymentConfig[] {
  return group.deployments.map((d) => ({
    provider: d.provider,
    model: d.model,
    apiBase: (d.api_base ?? '').replace(/\/+$/, ''),
    apiKeyEnv: d.api_key_env ?? '',
    weight: d.weight ?? 1,
    timeoutMs: d.timeout_ms,
  }));
}

function chatGroup(group: RawGroup, path: string, issues: ConfigIssue[]): ChatGroupConfig | undefined {
  const before = issues.length;
  const require = <T>(value: T | undefined, field: string): T | undefined => {
    if (value === undefined) issues.push({ path: `${path}.${field}`, message: 'is required for a chat group' });
    return value;
  };
  if (group.video) issues.push({ path: `${path}.video`, message: 'only video groups take a video section' });
  for (const field of ['per_second_by_resolution', 'per_mtok_by_resolution'] as const) {
    if (group.price[field]) issues.push({ path: `${path}.price.${field}`, message: 'only video groups are priced by resolution' });
  }
  const maxInputTokens = require(group.max_input_tokens, 'max_input_tokens');
  const maxOutputTokens = require(group.max_output_tokens, 'max_output_tokens');
  require(group.price.input_per_mtok, 'price.input_per_mtok');
  require(group.price.output_per_mtok, 'price.output_per_mtok');
  const price = chatPrice(group.price, `${path}.price`, issues);
  if (issues.length > before || maxInputTokens === undefined || maxOutputTokens === undefined || price === undefined) {
    return undefined;
  }
  // Costs are safe integers of nano-dollars; a price that overflows them at the group's limits is a typo.
  if (worstCaseTokenCost(price, maxInputTokens, maxOutputTokens) >= Number.MAX_SAFE_INTEGER) {
    issues.push({ path: `${path}.price`, message: 'a call at max_input_tokens and max_output_tokens would cost over 9 million USD' });
    return undefined;
  }
  return {
    ...base(group, path),
    mode: 'chat',
    maxInputTokens,
    maxOutputTokens,
    imageInput: group.image_input ?? false,
    reasoning: group.reasoning ? { defaultEffort: group.reasoning.default_effort } : undefined,
    price,
  };
}

/**
 * A chat price as billed: exact decimals, the cache-hit default (the input price: no discount)
 * and each window's omitted prices taken from the base. Undefined when anything is wrong.
 */
function chatPrice(raw: RawPrice, path: string, issues: ConfigIssue[]): TokenPrice | undefined {
  const before = issues.length;
  const input = decimal(raw.input_per_mtok, `${path}.input_per_mtok`, issues);
  const output = decimal(raw.output_per_mtok, `${path}.output_per_mtok`, issues);
  const cacheHit =
    raw.input_cache_hit_per_mtok === undefined ? input : decimal(raw.input_cache_hit_per_mtok, `${path}.input_cache_hit_per_mtok`, issues);
  if (input === undefined || output === undefined || cacheHit === undefined) return undefined;
  checkCacheHit(input, cacheHit, `${path}.input_cache_hit_per_mtok`, issues);
  // With no cache-hit price anywhere there is no discount anywhere, so a window's default is its own input price.
  const base = { input, cacheHit: raw.input_cache_hit_per_mtok === undefined ? undefined : cacheHit, output };
  const windows: { index: number; window: TokenPriceWindow }[] = [];
  (raw.windows ?? []).forEach((w, index) => {
    const where = `${path}.windows[${index}]`;
    const window = priceWindow(w, base, where, issues);
    if (window === undefined) return;
    const other = windows.find((earlier) => overlap(earlier.window, window));
    if (other) {
      issues.push({
        path: `${where}.utc`,
        message: `overlaps windows[${other.index}] (${other.window.utc}); at most one window may apply at a time`,
      });
    }
    windows.push({ index, window });
  });
  if (issues.length > before) return undefined;
  return { kind: 'per_token', base: { input, cacheHit, output }, windows: windows.map((w) => w.window) };
}

type RawWindow = NonNullable<RawPrice['windows']>[number];

/** One window with the prices it omits taken from the base (`cacheHit` undefined: the base names none). */
function priceWindow(
  w: RawWindow,
  base: { input: Decimal; cacheHit: Decimal | undefined; output: Decimal },
  where: string,
  issues: ConfigIssue[],
): TokenPriceWindow | undefined {
  const span = parseUtcWindow(w.utc);
  if (span === undefined) {
    issues.push({
      path: `${where}.utc`,
      message: 'must be "HH:MM-HH:MM" in UTC, from 00:00 to 24:00, starting before 24:00, start and end different',
    });
  }
  const input = w.input_per_mtok === undefined ? base.input : decimal(w.input_per_mtok, `${where}.input_per_mtok`, issues);
  const output = w.output_per_mtok === undefined ? base.output : decimal(w.output_per_mtok, `${where}.output_per_mtok`, issues);
  const cacheHit =
    w.input_cache_hit_per_mtok === undefined
      ? (base.cacheHit ?? input)
      : decimal(w.input_cache_hit_per_mtok, `${where}.input_cache_hit_per_mtok`, issues);
  if (input === undefined || output === undefined || cacheHit === undefined || span === undefined) return undefined;
  if (w.input_cache_hit_per_mtok !== undefined) checkCacheHit(input, cacheHit, `${where}.input_cache_hit_per_mtok`, issues);
  // Both inherited: the base's own check covers them.
  else if (w.input_per_mtok !== undefined && compareDecimal(cacheHit, input) > 0) {
    issues.push({
      path: `${where}.input_per_mtok`,
      message: `is below the cache-hit price the window inherits (${formatDecimal(cacheHit)}); give the window its own input_cache_hit_per_mtok`,
    });
  }
  const rates: TokenRates = { input, cacheHit, output };
  return { utc: w.utc, ...span, rates };
}

function decimal(value: number | undefined, path: string, issues: ConfigIssue[]): Decimal | undefined {
  if (value === undefined) return undefined;
  const parsed = parseDecimal(value);
  if (parsed === undefined) issues.push({ path, message: 'must be a finite decimal number >= 0' });
  return parsed;
}

function checkCacheHit(input: Decimal, cacheHit: Decimal, path: string, issues: ConfigIssue[]): void {
  if (compareDecimal(cacheHit, input) > 0) {
    issues.push({ path, message: `must not be above the input price (${formatDecimal(input)})` });
  }
}

/** Whether two windows share a minute; a window wrapping midnight is its two spans. */
function overlap(a: TokenPriceWindow, b: TokenPriceWindow): boolean {
  const spans = (w: TokenPriceWindow): [number, number][] =>
    w.startMinute < w.endMinute
      ? [[w.startMinute, w.endMinute]]
      : [
          [w.startMinute, 1440],
          [0, w.endMinute],
        ];
  return spans(a).some(([s1, e1]) => spans(b).some(([s2, e2]) => s1 < e2 && s2 < e1));
}

function videoGroup(group: RawGroup, path: string, issues: ConfigIssue[]): VideoGroupConfig | undefined {
  const before = issues.length;
  for (const field of ['reasoning', 'image_input'] as const) {
    if (group[field] !== undefined)
      issues.push({ path: `${path}.${field}`, message: 'only chat groups take this field (video image input is video.image_input)' });
  }
  for (const field of ['input_per_mtok', 'input_cache_hit_per_mtok', 'output_per_mtok', 'windows'] as const) {
    if (group.price[field] !== undefined) issues.push({ path: `${path}.price.${field}`, message: 'video groups are priced by resolution' });
  }
  const video = group.video;
  if (!video) {
    issues.push({ path: `${path}.video`, message: 'is required for a video group' });
    return undefined;
  }
  const [minSeconds, maxSeconds] = video.seconds as [number, number];
  if (minSeconds > maxSeconds) issues.push({ path: `${path}.video.seconds`, message: 'must be [min, max] with min <= max' });
  if (!video.resolutions.includes(video.default_resolution)) {
    issues.push({
      path: `${path}.video.default_resolution`,
      message: `must be one of the group's resolutions (${video.resolutions.join(', ')})`,
    });
  }
  const perSecond = group.price.per_second_by_resolution;
  const perToken = group.price.per_mtok_by_resolution;
  if ((perSecond === undefined) === (perToken === undefined)) {
    issues.push({
      path: `${path}.price`,
      message: 'a video group needs exactly one of per_second_by_resolution or per_mtok_by_resolution',
    });
    return undefined;
  }
  const table = (perSecond ?? perToken) as Record<string, number>;
  const field = perSecond ? 'per_second_by_resolution' : 'per_mtok_by_resolution';
  const nanosByResolution: Record<string, number> = {};
  for (const resolution of video.resolutions) {
    const price = table[resolution];
    const where = `${path}.price.${field}.${resolution}`;
    if (price === undefined) {
      issues.push({ path: where, message: 'every resolution of the group needs a price' });
      continue;
    }
    const nanos = perSecond ? unitPrice(price, where, issues) : tokenPrice(price, where, issues);
    if (nanos !== undefined) nanosByResolution[resolution] = nanos;
  }
  for (const resolution of Object.keys(table)) {
    if (!video.resolutions.includes(resolution)) {
      issues.push({ path: `${path}.price.${field}.${resolution}`, message: "is not one of the group's resolutions" });
    }
  }
  if (issues.length > before) return undefined;
  return {
    ...base(group, path),
    mode: 'video',
    maxInputTokens: group.max_input_tokens,
    maxOutputTokens: group.max_output_tokens,
    video: {
      resolutions: video.resolutions,
      defaultResolution: video.default_resolution,
      minSeconds,
      maxSeconds,
      ratios: video.ratios,
      imageInput: video.image_input ?? 'none',
    },
    price: { kind: perSecond ? 'per_second' : 'per_token', nanosByResolution },
  };
}

function base(group: RawGroup, path: string) {
  return {
    id: group.id,
    aliases: group.aliases ?? [],
    fallbacks: group.fallbacks ?? [],
    created: group.created ?? 0,
    deployments: deployments(group),
    path,
  };
}

function tokenPrice(usdPerMtok: number | undefined, path: string, issues: ConfigIssue[]): number | undefined {
  if (usdPerMtok === undefined) return undefined;
  const nanos = nanosPerTokenFromMtokPrice(usdPerMtok);
  if (nanos === undefined)
    issues.push({ path, message: 'prices per million tokens take at most three decimals (whole nano-dollars per token)' });
  return nanos;
}

function unitPrice(usd: number, path: string, issues: ConfigIssue[]): number | undefined {
  const nanos = nanosFromUnitPrice(usd);
  if (nanos === undefined) issues.push({ path, message: 'prices take at most nine decimals (whole nano-dollars)' });
  return nanos;
}
