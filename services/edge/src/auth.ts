import type { RequestContext } from '@gateway/logging';
import { hashSecret, looksLikeSecret, type AccountingClient } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { Key__Output } from '@gateway/protos';

/** The caller of a /v1 request, as accounting described its key. */
export interface AuthenticatedKey {
  key: Key__Output;
  spentNanoUsd: number;
}

interface CacheEntry {
  value: AuthenticatedKey;
  expiresAt: number;
}

const MAX_CACHED_KEYS = 50_000;

/** The secret from `Authorization: Bearer sk-…`, or a 401 that says what is wrong. */
export function bearerSecret(header: string | undefined): string {
  if (!header) throw new GatewayError('invalid_api_key', { message: 'Missing API key. Send it as "Authorization: Bearer sk-...".' });
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  const secret = match?.[1];
  if (!secret || !looksLikeSecret(secret)) {
    throw new GatewayError('invalid_api_key', { message: 'Malformed API key. Send it as "Authorization: Bearer sk-...".' });
  }
  return secret;
}

/**
 * Resolves secrets to keys through accounting, remembering answers for a short time (at most
 * 2 s, so a revocation always takes effect within that) and forgetting a key at once when a
 * key-change event names it. Concurrent lookups of the same key share one call.
 */
export class KeyAuthenticator {
  readonly #cache = new Map<string, CacheEntry>();
  readonly #hashById = new Map<string, string>();
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
    const hash = this.#hashById.get(keyId);
    if (hash) this.#cache.delete(hash);
    this.#hashById.delete(keyId);
  }

  async #lookUp(hash: string, context: RequestContext): Promise<AuthenticatedKey> {
    const value = await this.accounting.authenticateKey(hash, { ...context, deadlineMs: 2000 });
    if (this.ttlMs > 0) {
      if (this.#cache.size >= MAX_CACHED_KEYS) {
        const oldest = this.#cache.keys().next().value;
        if (oldest !== undefined) this.#cache.delete(oldest);
      }
      this.#cache.delete(hash);
      this.#cache.set(hash, { value, expiresAt: Date.now() + this.ttlMs });
      this.#hashById.set(value.key.id, hash);
    }
    return value;
  }
}
