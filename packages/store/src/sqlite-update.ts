import { type Filter, StoreError, type Update } from './port.js';
import { isPlainObject } from './sqlite-codec.js';
import { isOperators } from './sqlite-filter.js';

// Updates applied in JavaScript to a decoded document ($set, $inc, $unset), and the document an
// upsert starts from.

function parentOf(doc: Record<string, unknown>, field: string, create: boolean): [Record<string, unknown>, string] | undefined {
  const segments = field.split('.');
  let parent = doc;
  for (let i = 0; i < segments.length - 1; i += 1) {
    const segment = segments[i] as string;
    let next = parent[segment];
    if (!isPlainObject(next)) {
      if (!create) return undefined;
      next = {};
      parent[segment] = next;
    }
    parent = next as Record<string, unknown>;
  }
  return [parent, segments[segments.length - 1] as string];
}

function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !(value instanceof Date) ? structuredClone(value) : value;
}

export function applyUpdate(doc: Record<string, unknown>, update: Update): void {
  for (const [field, value] of Object.entries(update.$set ?? {})) {
    if (field === '_id') continue;
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    parent[key] = copy(value);
  }
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    const current = parent[key] ?? 0;
    if (typeof current !== 'number') throw new StoreError('invalid_query', `cannot $inc the non-number field "${field}"`);
    parent[key] = current + by;
  }
  for (const field of Object.keys(update.$unset ?? {})) {
    const found = parentOf(doc, field, false);
    if (found) delete found[0][found[1]];
  }
}

/** The document an upsert starts from: the filter's plain equality fields. */
export function seed(filter: Filter): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue;
    const value = isOperators(condition) ? (Object.hasOwn(condition, '$eq') ? condition.$eq : undefined) : condition;
    if (value === undefined) continue;
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    parent[key] = copy(value);
  }
  return doc;
}
