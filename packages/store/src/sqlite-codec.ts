// The embedded store's document codec. JSON has no dates: a Date is stored as its milliseconds
// (so indexes and range filters compare numbers), and the paths that held Dates are kept beside
// the document (the `dates` column) to revive them.

/** A collection row as stored: the document's JSON and the paths of its Dates (null for none). */
export type DocumentRow = { doc: string; dates: string | null };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Appends the path of every Date under `value` to `out`; `path` is a stack, copied only for a Date found. */
function collectDates(value: unknown, path: string[], out: string[][]): void {
  if (typeof value !== 'object' || value === null) return;
  if (value instanceof Date) {
    out.push(path.slice());
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      path.push(String(i));
      collectDates(item, path, out);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item !== 'object' || item === null || !Object.hasOwn(record, key)) continue;
    path.push(key);
    collectDates(item, path, out);
    path.pop();
  }
}

/**
 * The document with each Date at `paths` replaced by its milliseconds; only the containers on
 * the way to a Date are copied (a replacer function would slow JSON.stringify for every key).
 */
function datesAsMillis(doc: object, paths: readonly string[][]): object {
  const root: Record<string, unknown> = { ...doc };
  for (const path of paths) {
    let parent = root;
    for (let i = 0; i < path.length - 1; i += 1) {
      const segment = path[i] as string;
      const child = parent[segment] as Record<string, unknown> | unknown[];
      const copied = Array.isArray(child) ? child.slice() : { ...child };
      parent[segment] = copied;
      parent = copied as Record<string, unknown>;
    }
    const last = path[path.length - 1] as string;
    parent[last] = (parent[last] as Date).getTime();
  }
  return root;
}

export function encodeDocument(doc: object): { json: string; dates: string | null } {
  const dates: string[][] = [];
  collectDates(doc, [], dates);
  if (dates.length === 0) return { json: JSON.stringify(doc), dates: null };
  return { json: JSON.stringify(datesAsMillis(doc, dates)), dates: JSON.stringify(dates) };
}

export function decodeDocument<T>(row: DocumentRow): T {
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  if (row.dates !== null) {
    for (const path of JSON.parse(row.dates) as string[][]) {
      let parent: Record<string, unknown> = doc;
      for (let i = 0; i < path.length - 1; i += 1) parent = parent[path[i] as string] as Record<string, unknown>;
      const last = path[path.length - 1] as string;
      parent[last] = new Date(parent[last] as number);
    }
  }
  return doc as T;
}
