// What every part of the hostile table shares: a case's shape, how a part adds cases, and the
// helpers that write bodies.

export interface HostileCase {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Who calls: a key of the demo config, the admin token, or nobody. */
  auth: 'key' | 'admin' | 'none' | 'wrong-key' | 'wrong-admin' | 'malformed';
  /** The exact answer, where one is due: status, error code, and the Allow header (none: absent). */
  expected?: { status: number; code: string; allow?: string };
}

/** How a part of the table adds its cases. */
export type Add = (c: HostileCase) => void;

export const json = (value: unknown) => JSON.stringify(value);
export const JSON_TYPE = { 'content-type': 'application/json' };

export function deep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}
