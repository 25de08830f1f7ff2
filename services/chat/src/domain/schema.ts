import Type, { Compile } from '@gateway/typebox';

// The documented OpenAI chat fields, typed and bounded, checked by one compiled schema (fields it
// does not name pass, and each provider's parameter map drops what its upstream does not take).
// Bounds keep one request from costing the gateway or an upstream out of proportion; they are
// documented in docs/api.md ("POST /v1/chat/completions": limits).

export const CHAT_LIMITS = {
  messages: 4096,
  contentParts: 256,
  tools: 128,
  stop: 4,
  logitBias: 1024,
  /** Objects and arrays inside one another, anywhere in the body (tool schemas included). */
  depth: 64,
  name: 256,
  user: 512,
} as const;

const Finite = (options: { minimum?: number; maximum?: number } = {}) => Type.Number(options);
const Int = (options: { minimum?: number; maximum?: number } = {}) => Type.Integer(options);
const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ContentPart = Type.Object({ type: Type.String() });
const Message = Type.Object({
  role: Type.String(),
  content: Type.Optional(Nullable(Type.Union([Type.String(), Type.Array(ContentPart, { maxItems: CHAT_LIMITS.contentParts })]))),
  name: Type.Optional(Type.String({ maxLength: CHAT_LIMITS.name })),
  tool_call_id: Type.Optional(Type.String({ maxLength: CHAT_LIMITS.name })),
  tool_calls: Type.Optional(Nullable(Type.Array(Type.Object({}), { maxItems: CHAT_LIMITS.tools }))),
});

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Object({})),
    strict: Type.Optional(Nullable(Type.Boolean())),
  }),
});

const ToolChoice = Type.Union([
  Type.Enum(['none', 'auto', 'required']),
  Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }) }),
]);

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Enum(['text', 'json_object']) }),
  Type.Object({
    type: Type.Literal('json_schema'),
    json_schema: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), schema: Type.Optional(Type.Object({})) }),
  }),
]);

export const ChatRequestSchema = Type.Object({
  // The edge has resolved it already; here it is only checked for type.
  model: Type.Optional(Type.String({ minLength: 1 })),
  messages: Type.Array(Message, { minItems: 1, maxItems: CHAT_LIMITS.messages }),
  stream: Type.Optional(Nullable(Type.Boolean())),
  stream_options: Type.Optional(Nullable(Type.Object({ include_usage: Type.Optional(Nullable(Type.Boolean())) }))),
  temperature: Type.Optional(Nullable(Finite({ minimum: 0, maximum: 2 }))),
  top_p: Type.Optional(Nullable(Finite({ minimum: 0, maximum: 1 }))),
  n: Type.Optional(Nullable(Int({ minimum: 1, maximum: 128 }))),
  stop: Type.Optional(Nullable(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: CHAT_LIMITS.stop })]))),
  max_tokens: Type.Optional(Nullable(Int({ minimum: 1 }))),
  max_completion_tokens: Type.Optional(Nullable(Int({ minimum: 1 }))),
  presence_penalty: Type.Optional(Nullable(Finite({ minimum: -2, maximum: 2 }))),
  frequency_penalty: Type.Optional(Nullable(Finite({ minimum: -2, maximum: 2 }))),
  logit_bias: Type.Optional(
    Nullable(
      Type.Record(Type.String({ pattern: '^[0-9]+$' }), Finite({ minimum: -100, maximum: 100 }), {
        maxProperties: CHAT_LIMITS.logitBias,
        additionalProperties: false,
      }),
    ),
  ),
  logprobs: Type.Optional(Nullable(Type.Boolean())),
  top_logprobs: Type.Optional(Nullable(Int({ minimum: 0, maximum: 20 }))),
  user: Type.Optional(Type.String({ maxLength: CHAT_LIMITS.user })),
  seed: Type.Optional(Nullable(Int({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }))),
  tools: Type.Optional(Nullable(Type.Array(FunctionTool, { maxItems: CHAT_LIMITS.tools }))),
  tool_choice: Type.Optional(Nullable(ToolChoice)),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  response_format: Type.Optional(Nullable(ResponseFormat)),
  // OpenAI's levels and the specification's; a group without reasoning ignores a valid one.
  reasoning_effort: Type.Optional(Nullable(Type.Enum(['none', 'minimal', 'low', 'medium', 'high', 'max']))),
});

export const chatRequestChecker = Compile(ChatRequestSchema);

/** A value the walk below has yet to look at, and how it was reached. */
interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  /** Its index in an array, or its key in an object. */
  key: number | string;
}

/** The `param` path of a visited value (`messages[0].content`), built only for a problem. */
function pathOf(visit: Visit): string {
  let path = '';
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) {
    const step = typeof at.key === 'number' ? `[${at.key}]` : at.parent.parent === undefined ? at.key : `.${at.key}`;
    path = step + path;
  }
  return path;
}

/**
 * The first problem a walk of the parsed body finds that no schema states: nesting deeper than
 * the limit, or a number that is not finite (JSON's 1e309 parses to Infinity). Iterative, so a
 * hostile depth cannot overflow the stack here or later when the body is encoded. Only objects,
 * arrays and non-finite numbers are visited, and a path is built only for the problem found: a
 * valid body costs one small record per object or array in it.
 */
export function shapeProblem(body: unknown): { path: string; message: string } | undefined {
  const stack: Visit[] = [{ value: body, depth: 0, parent: undefined, key: '' }];
  const visit = (value: unknown, depth: number, parent: Visit, key: number | string): void => {
    if (typeof value === 'object' ? value !== null : typeof value === 'number' && !Number.isFinite(value)) {
      stack.push({ value, depth, parent, key });
    }
  };
  while (stack.length > 0) {
    const at = stack.pop() as Visit;
    const { value, depth } = at;
    if (typeof value === 'number') return { path: pathOf(at), message: 'must be a finite number.' };
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= CHAT_LIMITS.depth) return { path: pathOf(at), message: `nests objects and arrays more than ${CHAT_LIMITS.depth} deep.` };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) visit(value[i], depth + 1, at, i);
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) if (Object.hasOwn(record, key)) visit(record[key], depth + 1, at, key);
    }
  }
  return undefined;
}

/** `/messages/0/role` → `messages[0].role`, as `param` names fields. */
export function paramOf(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}
