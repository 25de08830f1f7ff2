import type { RequestContext } from '@gateway/logging';
import { hashSecret, keyAllows, looksLikeSecret, type AccountingClient, type AuthenticatedKeyAnswer } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/** The caller of a /v1 request, as accounting described its key (models narrowed by its team). */
export type AuthenticatedKey = AuthenticatedKeyAnswer;

/** Whether the caller may call a group: its key's list and its team's both allow it. */
export function callerMay(caller: AuthenticatedKey, groupId: string): boolean {
  return keyAllows({ models: caller.allowedModels }, groupId);
}

interface CacheEntry {
  value: AuthenticatedKey;
  expiresAt: number;
}

const MAX_CACHED_KEYS = 50_000;

/** The secret from `Authorization: Bearer sk-…`, or a 401 that says what is wrong. */
export function bearerSecret(header: string | undefined): string {
  if (!header)
    throw new GatewayError('invalid_api_key', {
      message: 'Missing API key. Send it as "Authorization: Bearer sk-..." (or "x-api-key: sk-...").',
    });
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  const secret = match?.[1];
  if (!secret || !looksLikeSecret(secret)) {
    throw new GatewayError('invalid_api_key', {
      message: 'Malformed API key. Send it as "Authorization: Bearer sk-..." (or "x-api-key: sk-...").',
    });
  }
  return secret;
}

/**
 * Resolves secrets to keys through accounting, remembering answers for a short time (at most
 * 2 s, so a revocation always takes effect within that, and never past the moment the secret
 * stops working: expiry, the end of a rotation's grace) and forgetting a key at once when a
 * key-change event names it or its team. Concurrent lookups of the same key share one call.
 */
export class KeyAuthenticator {
  readonly #cache = new Map<string, CacheEntry>();
  /** Every cached secret hash of a key (two while a rotation's grace lasts). */
  readonly #hashesById = new Map<string, Set<string>>();
  readonly #inFlight = new Map<string, Promise<AuthenticatedKey>>();

  constructor(
    private readonly accounting: AccountingClient,
    private readonly ttlMs: number,
  ) {}

  async authenticate(authorization: string | undefined, context: RequestContext = {}): Promise<AuthenticatedKey> {
    const hash = hashSecret(bearerSecret(authorization));
    const cached = this.#cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.value;
    let pending = this.#inFlight.get(hash);
    if (!pending) {
      pending = this.#lookUp(hash, context).finally(() => this.#inFlight.delete(hash));
      this.#inFlight.set(hash, pending);
    }
    return pending;
  }

  /** Drops whatever is cached for a key (it was revoked or changed). */
  forget(keyId: string): void {
    for (const hash of this.#hashesById.get(keyId) ?? []) this.#cache.delete(hash);
    this.#hashesById.delete(keyId);
  }

  /** Drops every cached key of a team (the team changed: its models, limits or existence). */
  forgetTeam(teamId: string): void {
    for (const entry of [...this.#cache.values()]) {
      if (entry.value.key.team_id === teamId) this.forget(entry.value.key.id);
    }
  }

  async #lookUp(hash: string, context: RequestContext): Promise<AuthenticatedKey> {
    const value = await this.accounting.authenticateKey(hash, { ...context, deadlineMs: 2000 });
    if (this.ttlMs > 0) {
      if (this.#cache.size >= MAX_CACHED_KEYS) {
        const oldest = this.#cache.keys().next().value;
        if (oldest !== undefined) this.#cache.delete(oldest);
      }
      this.#cache.delete(hash);
      const expiresAt = Math.min(Date.now() + this.ttlMs, value.validUntilMs ?? Number.POSITIVE_INFINITY);
      this.#cache.set(hash, { value, expiresAt });
      const hashes = this.#hashesById.get(value.key.id) ?? new Set<string>();
      hashes.add(hash);
      this.#hashesById.set(value.key.id, hashes);
    }
    return value;
  }
}

/**
 * The Authorization a request authenticates with: its own, or Anthropic's `x-api-key` as a
 * bearer (Anthropic's SDKs and Claude Code send the key there). Both, naming different keys,
 * are refused: which one the caller meant cannot be told.
 */
export function presentedAuthorization(headers: { authorization?: string; 'x-api-key'?: string | string[] }): string | undefined {
  const apiKey = headers['x-api-key'];
  if (apiKey === undefined) return headers.authorization;
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new GatewayError('invalid_api_key', { message: 'Send one non-empty x-api-key header.' });
  }
  if (headers.authorization !== undefined && bearerSecret(headers.authorization) !== apiKey.trim()) {
    throw new GatewayError('invalid_api_key', { message: 'x-api-key and Authorization name different keys; send one.' });
  }
  return `Bearer ${apiKey.trim()}`;
}

/**
 * Node keeps the first of several Authorization headers and drops the rest; a request carrying
 * more than one is ambiguous about who is calling, so it is refused rather than guessed.
 */
export function refuseSeveralAuthorizations(rawHeaders: readonly string[]): void {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) {
      throw new GatewayError('invalid_request', { message: 'Send one Authorization header, not several.' });
    }
  }
}
