import type { Cursor, EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError } from './errors.ts';

export type PageRequest = { page?: string | undefined; limit: number };
export type Page<T> = { items: T[]; count: number; next?: { page: string } };

/** A sort key of a list and how its values travel inside page tokens. */
export type SortKey = { key: string; direction: 'asc' | 'desc'; type: 'date' | 'string' | 'number' };

/** Sorting by a timestamp column, the id breaking ties so the order is total. */
export function byTime(key: string, direction: 'asc' | 'desc'): SortKey[] {
  return [
    { key, direction, type: 'date' },
    { key: 'id', direction, type: 'string' },
  ];
}

/**
 * Keyset paging through MikroORM's `findByCursor`. Page tokens are ours: base64url JSON of the
 * last item's sort values, checked against the list's sort keys before they reach SQL, so a
 * malformed or foreign token is a 400 and never a database error. The last sort key must be
 * unique (the id), which keeps pages stable while rows are inserted concurrently.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  sort: SortKey[],
  request: PageRequest,
  options: { populate?: readonly string[] } = {},
): Promise<Page<T>> {
  const after = request.page === undefined ? undefined : decodeToken(request.page, sort);
  const orderBy = Object.fromEntries(sort.map((s) => [s.key, s.direction]));
  // The generic entity type cannot be narrowed here; callers pass where clauses typed by their entity.
  const anyEm = em as unknown as { count: (e: unknown, w: unknown) => Promise<number>; findByCursor: (e: unknown, o: unknown) => Promise<Cursor<T>> };
  if (request.limit === 0) return { items: [], count: await anyEm.count(entity, where) };
  const cursor = await anyEm.findByCursor(entity, {
    where,
    first: request.limit,
    after,
    orderBy,
    populate: options.populate,
  });
  const items = [...cursor.items] as T[];
  const last = items.at(-1);
  const next = cursor.hasNextPage && last ? { page: encodeToken(last, sort) } : undefined;
  return next ? { items, count: cursor.totalCount, next } : { items, count: cursor.totalCount };
}

/** Builds the next-page token from an item's own sort values. */
function encodeToken(item: object, sort: SortKey[]): string {
  const values = sort.map(({ key, type }) => {
    const v = (item as Record<string, unknown>)[key];
    return type === 'date' ? (v as Date).toISOString() : v;
  });
  return encodeArrayToken(values);
}

/** Page tokens for lists that are not tables (e.g. a revision's files): the last item's key. */
export function encodeArrayToken(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeArrayToken(token: string): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken();
  }
  if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' || v.length > 1000)) throw invalidToken();
  return values;
}

function decodeToken(token: string, sort: SortKey[]): Record<string, unknown> {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken();
  }
  if (!Array.isArray(values) || values.length !== sort.length) throw invalidToken();
  const cursor: Record<string, unknown> = {};
  sort.forEach(({ key, type }, i) => {
    cursor[key] = decodeValue(values[i], type);
  });
  return cursor;
}

function decodeValue(value: unknown, type: SortKey['type']): unknown {
  if (type === 'string' && typeof value === 'string' && value.length <= 1000) return value;
  if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) return value;
  if (type === 'date' && typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw invalidToken();
}

function invalidToken(): BadRequestError {
  return new BadRequestError('query.page: invalid page token; pass back `next.page` from the previous response unchanged');
}
