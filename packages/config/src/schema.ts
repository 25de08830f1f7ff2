import Type, { type Static } from '@gateway/typebox';

// The configuration file's shape. Structure is checked against this schema; the rules that
// span fields (unique names, prices per resolution, fallbacks) are in validate.ts.

const Name = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$' });
const PositiveInteger = Type.Integer({ minimum: 1 });
const Price = Type.Number({ minimum: 0 });

const Deployment = Type.Object(
  {
    /** Adapter name: the provider protocol spoken (chat: openai, deepseek; video: ark, minimax). */
    provider: Type.String({ minLength: 1 }),
    /** The upstream's own model name. */
    model: Type.String({ minLength: 1 }),
    /** Required, except for the built-in `demo` provider, which calls no one. */
    api_base: Type.Optional(Type.String({ pattern: '^https?://' })),
    /** Environment variable holding the credential; the deployment is served only while it is set (not needed by `demo`). */
    api_key_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
    weight: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    timeout_ms: Type.Optional(PositiveInteger),
  },
  { additionalProperties: false },
);

const VideoSpec = Type.Object(
  {
    resolutions: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    default_resolution: Type.String({ minLength: 1 }),
    /** Inclusive [min, max] duration in whole seconds. */
    seconds: Type.Array(PositiveInteger, { minItems: 2, maxItems: 2 }),
    ratios: Type.Array(Type.String({ pattern: '^[0-9]+:[0-9]+$' }), { minItems: 1 }),
    image_input: Type.Optional(Type.Enum(['none', 'first_frame'])),
  },
  { additionalProperties: false },
);

/** A UTC time-of-day span with its own chat prices; an omitted price is the group's base price. */
const PriceWindow = Type.Object(
  {
    /** `HH:MM-HH:MM` in UTC, end exclusive; may wrap midnight (`22:00-02:00`). */
    utc: Type.String(),
    input_per_mtok: Type.Optional(Price),
    input_cache_hit_per_mtok: Type.Optional(Price),
    output_per_mtok: Type.Optional(Price),
  },
  { additionalProperties: false },
);

const PriceSpec = Type.Object(
  {
    /** Chat: USD per million tokens, any number of decimals (billed exactly, rounded once per call). */
    input_per_mtok: Type.Optional(Price),
    /** Chat: prompt tokens served from the vendor's cache; defaults to input_per_mtok (no discount). */
    input_cache_hit_per_mtok: Type.Optional(Price),
    output_per_mtok: Type.Optional(Price),
    /** Chat: time-of-day prices (vendors' peak hours); at most one applies at any instant. */
    windows: Type.Optional(Type.Array(PriceWindow)),
    per_second_by_resolution: Type.Optional(Type.Record(Type.String(), Price)),
    per_mtok_by_resolution: Type.Optional(Type.Record(Type.String(), Price)),
  },
  { additionalProperties: false },
);

const Group = Type.Object(
  {
    id: Name,
    mode: Type.Enum(['chat', 'video']),
    aliases: Type.Optional(Type.Array(Name)),
    max_input_tokens: Type.Optional(PositiveInteger),
    max_output_tokens: Type.Optional(PositiveInteger),
    image_input: Type.Optional(Type.Boolean()),
    reasoning: Type.Optional(
      Type.Object(
        {
          default_effort: Type.Enum(['none', 'low', 'high', 'max']),
        },
        { additionalProperties: false },
      ),
    ),
    video: Type.Optional(VideoSpec),
    price: PriceSpec,
    /** Other groups (same mode) tried after every deployment of this one failed. */
    fallbacks: Type.Optional(Type.Array(Name)),
    /** Unix seconds reported as `created` in /v1/models. */
    created: Type.Optional(Type.Integer({ minimum: 0 })),
    deployments: Type.Array(Deployment, { minItems: 1 }),
  },
  { additionalProperties: false },
);

const Server = Type.Object(
  {
    /** Largest request body the edge accepts. */
    body_limit_bytes: Type.Optional(PositiveInteger),
    /** How long the edge trusts a looked-up key before asking accounting again. */
    key_cache_ttl_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
    /** How long the edge trusts the served-groups list before asking chat and video again. */
    models_cache_ttl_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Reservations not settled or released within this age are released (a crashed caller). */
    reservation_max_age_seconds: Type.Optional(PositiveInteger),
    /** On SIGTERM, how long in-flight calls and streams may run before they are cut. */
    shutdown_grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
    /** On SIGTERM, how long the edge keeps taking calls (readiness failing) before it stops: load balancers notice first. */
    shutdown_delay_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 })),
    /** The longest a chat stream may run; the shutdown grace defaults to it, plus time to settle. */
    max_stream_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    /** A clip download or SSE stream that makes no progress towards its caller for this long is cut. */
    stall_timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    ping_interval_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
    /** Clip downloads one key may have running at once on one edge; past it, 429. */
    downloads_per_key: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

const Router = Type.Object(
  {
    /** Further attempts after a retryable failure (connect error, timeout, 429, 5xx), on another deployment when there is one. */
    retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    /** Consecutive failures after which a deployment is cooled down. */
    allowed_fails: Type.Optional(PositiveInteger),
    /** How long a cooled-down deployment is skipped. */
    cooldown_seconds: Type.Optional(Type.Number({ minimum: 0 })),
    /** Default upstream timeout: time to the response headers, and the longest pause in a stream. */
    timeout_ms: Type.Optional(PositiveInteger),
  },
  { additionalProperties: false },
);

const Video = Type.Object(
  {
    /** How often unfinished jobs are polled upstream (and the age at which a GET refreshes a job). */
    poll_interval_ms: Type.Optional(PositiveInteger),
    /** Polls in flight at once per video replica. */
    max_concurrent_polls: Type.Optional(PositiveInteger),
    /** How long task records, and so finished clips, are kept. */
    retention_seconds: Type.Optional(PositiveInteger),
    /** Timeout of one call to a video provider's API. */
    timeout_ms: Type.Optional(PositiveInteger),
  },
  { additionalProperties: false },
);

const Responses = Type.Object(
  {
    /** false: no response is stored, whatever the caller or its key asks (`store: true` answers as if false). */
    store: Type.Optional(Type.Boolean()),
    /** How long stored responses (and so the conversations continued from them) are kept. */
    retention_seconds: Type.Optional(PositiveInteger),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    groups: Type.Array(Group),
    server: Type.Optional(Server),
    router: Type.Optional(Router),
    video: Type.Optional(Video),
    responses: Type.Optional(Responses),
  },
  { additionalProperties: false },
);

export type RawConfig = Static<typeof ConfigSchema>;
export type RawGroup = Static<typeof Group>;
export type RawDeployment = Static<typeof Deployment>;
export type RawPrice = Static<typeof PriceSpec>;
