import { type Filter, StoreError } from './port.js';
import { isPlainObject } from './sqlite-codec.js';
import type { SqlValue } from './sqlite-driver.js';

// Filters to SQL: a MongoDB-style filter becomes a condition on the collection table's JSON
// documents, its values bound as parameters. A field is read with json_extract at its JSON path.

export const PLAIN_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SAFE_SEGMENT = /^[^"'\\.]+$/;

/** The JSON path of a dotted field; the same text for an index and a query, so SQLite uses the index. */
function jsonPath(field: string): string {
  let path = '$';
  for (const segment of field.split('.')) {
    if (PLAIN_SEGMENT.test(segment)) path += `.${segment}`;
    else if (SAFE_SEGMENT.test(segment)) path += `."${segment}"`;
    else throw new StoreError('invalid_query', `field name "${field}" cannot be stored`);
  }
  return path;
}

/** How a field is read: the id column, or the document's JSON at the field's path. */
export function fieldExpr(field: string): string {
  return field === '_id' ? 'id' : `json_extract(doc, '${jsonPath(field)}')`;
}

/**
 * Writes a query's SQL. Indexed fields are written with their path in the SQL text (SQLite uses
 * an expression index only for the very same expression); other paths are bound as parameters,
 * so queries on changing paths (`holds.<id>`) share one prepared statement.
 */
export class QueryWriter {
  constructor(
    private readonly indexed: ReadonlySet<string>,
    readonly params: SqlValue[] = [],
  ) {}

  expr(field: string): string {
    if (field === '_id' || this.indexed.has(field)) return fieldExpr(field);
    this.params.push(jsonPath(field));
    return 'json_extract(doc, ?)';
  }

  type(field: string): string {
    this.params.push(jsonPath(field));
    return 'json_type(doc, ?)';
  }
}

function bindable(value: unknown): SqlValue {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new StoreError('invalid_query', `cannot compare with a ${typeof value}`);
}

export function isOperators(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function equals(q: QueryWriter, field: string, value: unknown): string {
  const expr = q.expr(field);
  if (value === null || value === undefined) return `${expr} IS NULL`;
  q.params.push(bindable(value));
  return `${expr} = ?`;
}

function list(values: unknown, op: string): unknown[] {
  if (!Array.isArray(values)) throw new StoreError('invalid_query', `${op} takes a list`);
  return values;
}

function operator(q: QueryWriter, field: string, op: string, value: unknown): string {
  const { params } = q;
  switch (op) {
    case '$eq':
      return equals(q, field, value);
    case '$ne': {
      if (value === null || value === undefined) return `${q.expr(field)} IS NOT NULL`;
      const [a, b] = [q.expr(field), q.expr(field)];
      params.push(bindable(value));
      return `(${a} IS NULL OR ${b} <> ?)`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (value === null || value === undefined) return '0';
      const expr = q.expr(field);
      params.push(bindable(value));
      const sign = op === '$gt' ? '>' : op === '$gte' ? '>=' : op === '$lt' ? '<' : '<=';
      return `${expr} ${sign} ?`;
    }
    case '$in':
    case '$nin': {
      const values = list(value, op);
      const present = values.filter((v) => v !== null && v !== undefined);
      const withNull = present.length < values.length;
      const marks = present.map(() => '?').join(', ');
      // Each expression is written just before its own parameters, so the order of `?` holds.
      const inList = (not: string) => {
        const expr = q.expr(field);
        for (const v of present) params.push(bindable(v));
        return `${expr} ${not}IN (${marks})`;
      };
      if (op === '$in') {
        const parts = [...(withNull ? [`${q.expr(field)} IS NULL`] : []), ...(present.length > 0 ? [inList('')] : [])];
        return parts.length > 0 ? `(${parts.join(' OR ')})` : '0';
      }
      // A missing field is "not in" the list, as in MongoDB, unless the list holds null.
      if (present.length === 0) return withNull ? `${q.expr(field)} IS NOT NULL` : '1';
      return withNull ? `(${q.expr(field)} IS NOT NULL AND ${inList('NOT ')})` : `(${q.expr(field)} IS NULL OR ${inList('NOT ')})`;
    }
    case '$exists':
      if (field === '_id') return value ? '1' : '0';
      return `${q.type(field)} IS ${value ? 'NOT ' : ''}NULL`;
    default:
      throw new StoreError('invalid_query', `unsupported operator ${op}`);
  }
}

/** A filter as a SQL condition; its values are appended to the writer's parameters in order. */
export function where(q: QueryWriter, filter: Filter): string {
  const parts: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') {
      const branches = list(condition, field).map((branch) => `(${where(q, branch as Filter)})`);
      if (branches.length === 0) parts.push(field === '$or' ? '0' : '1');
      else parts.push(`(${branches.join(field === '$or' ? ' OR ' : ' AND ')})`);
      continue;
    }
    if (isOperators(condition)) {
      for (const [op, value] of Object.entries(condition)) parts.push(operator(q, field, op, value));
    } else {
      parts.push(equals(q, field, condition));
    }
  }
  return parts.length > 0 ? parts.join(' AND ') : '1';
}
