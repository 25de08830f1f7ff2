import type { TokenPrice } from '@gateway/pricing';

// The validated configuration as the services use it: defaults filled in, video prices in whole
// nano-dollars, chat prices as exact decimals, names indexed.

export type GroupMode = 'chat' | 'video';
export type ReasoningEffort = 'none' | 'low' | 'high' | 'max';

/** The built-in provider that answers inside the gateway: no upstream, no credential, always served. */
export const DEMO_PROVIDER = 'demo';

export interface DeploymentConfig {
  provider: string;
  model: string;
  /** Empty for the demo provider. */
  apiBase: string;
  /** Empty for the demo provider. */
  apiKeyEnv: string;
  weight: number;
  timeoutMs: number | undefined;
}

/** Exact decimal prices per million tokens, with cache-hit input and UTC time-of-day windows. */
export type ChatPrice = TokenPrice;

export interface VideoPrice {
  kind: 'per_second' | 'per_token';
  /** Nano-dollars per second of output, or per token, by resolution. */
  nanosByResolution: Readonly<Record<string, number>>;
}

export interface VideoSpecConfig {
  resolutions: readonly string[];
  defaultResolution: string;
  minSeconds: number;
  maxSeconds: number;
  ratios: readonly string[];
  imageInput: 'none' | 'first_frame';
}

interface GroupBase {
  id: string;
  aliases: readonly string[];
  fallbacks: readonly string[];
  created: number;
  deployments: readonly DeploymentConfig[];
  /** Where the group was declared, for messages: `groups[3]`. */
  path: string;
}

export interface ChatGroupConfig extends GroupBase {
  mode: 'chat';
  maxInputTokens: number;
  maxOutputTokens: number;
  imageInput: boolean;
  reasoning: { defaultEffort: ReasoningEffort } | undefined;
  price: ChatPrice;
}

export interface VideoGroupConfig extends GroupBase {
  mode: 'video';
  maxInputTokens: number | undefined;
  maxOutputTokens: number | undefined;
  video: VideoSpecConfig;
  price: VideoPrice;
}

export type GroupConfig = ChatGroupConfig | VideoGroupConfig;

export interface ServerConfig {
  reservationMaxAgeMs: number;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  modelsCacheTtlMs: number;
  shutdownGraceMs: number;
  shutdownDelayMs: number;
  maxStreamMs: number;
  stallTimeoutMs: number;
  /** An Anthropic Messages stream writes a `ping` after this long without another event. */
  pingIntervalMs: number;
  downloadsPerKey: number;
}

export interface RouterConfig {
  retries: number;
  allowedFails: number;
  cooldownMs: number;
  timeoutMs: number;
}

export interface VideoServiceConfig {
  pollIntervalMs: number;
  maxConcurrentPolls: number;
  retentionSeconds: number;
  timeoutMs: number;
}

/** The Responses API's stored responses (`/v1/responses` with `store`). */
export interface ResponsesConfig {
  /** false: storage is off for every key. */
  store: boolean;
  /** How long accounting keeps a stored response. */
  retentionSeconds: number;
}

export interface GatewayConfig {
  groups: readonly GroupConfig[];
  server: ServerConfig;
  router: RouterConfig;
  video: VideoServiceConfig;
  responses: ResponsesConfig;
  /** Where the configuration came from (a path, or "embedded example"). */
  source: string;
}

export interface ConfigIssue {
  /** `groups[2].deployments[0].api_key_env` */
  path: string;
  message: string;
}
