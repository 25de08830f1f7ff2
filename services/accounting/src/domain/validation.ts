import { ALL_MODELS } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { GroupIndex } from '@gateway/config';

// The rules for the fields keys and teams share. The edge's schemas check shapes first; these
// hold for every caller of accounting (the CLI's tests, other tools speaking gRPC) and answer
// 422 naming the field.

const MAX_NAME_LENGTH = 200;
export const MAX_METADATA_ENTRIES = 50;
const MAX_METADATA_NAME = 64;
const MAX_METADATA_VALUE = 512;

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', { param, message });
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH) throw invalid('name', `name must be 1 to ${MAX_NAME_LENGTH} characters`);
  return trimmed;
}

export function checkAmount(param: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(param, `${param} must be a number >= 0`);
  return value;
}

export function checkLimit(param: 'rpm' | 'tpm', value: number): number {
  if (!Number.isInteger(value) || value < 0) throw invalid(param, `${param} must be a whole number >= 1`);
  return value;
}

/** A yes-or-no field, from callers that may send anything (gRPC gives booleans; scripts may not). */
export function checkFlag(param: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid(param, `${param} must be true or false`);
  return value;
}

/** Aliases become group ids; unknown names are refused so a typo cannot grant nothing silently. */
export function resolveModels(groups: GroupIndex, models: readonly string[]): string[] {
  if (models.length === 0) throw invalid('models', 'models must list at least one group, or "*"');
  const ids = new Set<string>();
  for (const model of models) {
    if (model === ALL_MODELS) {
      ids.add(ALL_MODELS);
      continue;
    }
    const group = groups.resolve(model);
    if (!group) throw invalid('models', `unknown model group "${model}"`);
    ids.add(group.id);
  }
  return ids.has(ALL_MODELS) ? [ALL_MODELS] : [...ids].sort();
}

export function checkMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_ENTRIES) throw invalid('metadata', `metadata holds at most ${MAX_METADATA_ENTRIES} entries`);
  const checked: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (name === '' || name.length > MAX_METADATA_NAME || !/^[A-Za-z0-9_.:/-]+$/.test(name)) {
      throw invalid('metadata', `metadata names are 1-${MAX_METADATA_NAME} letters, digits and _ . : / -`);
    }
    if (typeof value !== 'string' || value.length > MAX_METADATA_VALUE) {
      throw invalid('metadata', `metadata values are strings of at most ${MAX_METADATA_VALUE} characters`);
    }
    checked[name] = value;
  }
  return checked;
}

/** An expiry must lie ahead (0 means none). */
export function checkExpiry(expiresAtMs: number, now: number): Date | null {
  if (expiresAtMs === 0) return null;
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs <= now) throw invalid('expires_at', 'expires_at must be a time in the future');
  return new Date(expiresAtMs);
}

/** A key calls a group only when its own list and its team's both allow it. */
export function effectiveModels(keyModels: readonly string[], teamModels: readonly string[] | undefined): string[] {
  if (!teamModels || teamModels.includes(ALL_MODELS)) return [...keyModels];
  if (keyModels.includes(ALL_MODELS)) return [...teamModels];
  return keyModels.filter((m) => teamModels.includes(m));
}
