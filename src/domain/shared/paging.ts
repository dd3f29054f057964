import { createHash } from 'node:crypto';
import type { Cursor, EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError } from './errors.ts';

/**
 * What a client asks of a paged list. `list` names the list being paged (the API sets it to
 * the operation id): a page token is valid only for the list, kind and order that made it.
 */
export type PageRequest = { page?: string | undefined; limit: number; list?: string | undefined };
export type Page<T> = { items: T[]; count: number; next?: { page: string } };

/** A sort key of a list and how its values travel inside page tokens. */
export type SortKey = { key: string; direction: 'asc' | 'desc'; type: 'date' | 'string' | 'number' };

/**
 * The three ways Vellum cuts pages, each with its own token kind:
 * - `keyset`: a table sorted by unique keys; the token holds the last item's sort values;
 * - `array`: a list built in memory (a revision's files, links); the token holds the last key;
 * - `ranked`: results ordered by a score (search); the token holds an offset.
 */
type TokenKind = 'keyset' | 'array' | 'ranked';

/** Sorting by a timestamp column, the id breaking ties so the order is total. */
export function byTime(key: string, direction: 'asc' | 'desc'): SortKey[] {
  return [
    { key, direction, type: 'date' },
    { key: 'id', direction, type: 'string' },
  ];
}

/**
 * Keyset paging through MikroORM's `findByCursor`. Page tokens are ours and checked before
 * they reach SQL, so a malformed or foreign token is a 400 and never a database error. The
 * last sort key must be unique (the id), which keeps pages stable under concurrent inserts.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  sort: SortKey[],
  request: PageRequest,
  options: { populate?: readonly string[] } = {},
): Promise<Page<T>> {
  const identity = listIdentity(request, 'keyset', sort.map((s) => `${s.key}:${s.direction}`).join(','));
  const after = request.page === undefined ? undefined : keysetCursor(decodeToken(request.page, 'keyset', identity), sort);
  const orderBy = Object.fromEntries(sort.map((s) => [s.key, s.direction]));
  // The generic entity type cannot be narrowed here; callers pass where clauses typed by their entity.
  const anyEm = em as unknown as { count: (e: unknown, w: unknown) => Promise<number>; findByCursor: (e: unknown, o: unknown) => Promise<Cursor<T>> };
  if (request.limit === 0) return { items: [], count: await anyEm.count(entity, where) };
  const cursor = await anyEm.findByCursor(entity, { where, first: request.limit, after, orderBy, populate: options.populate });
  const items = [...cursor.items] as T[];
  const last = items.at(-1);
  if (!cursor.hasNextPage || !last) return { items, count: cursor.totalCount };
  const values = sort.map(({ key, type }) => {
    const v = (last as Record<string, unknown>)[key];
    return type === 'date' ? (v as Date).toISOString() : v;
  });
  return { items, count: cursor.totalCount, next: { page: encodeToken('keyset', identity, values) } };
}

/**
 * Keyset paging for a list the caller queries itself, ordered by computed values (a count
 * per row) that findPage cannot sort by: where the requested page starts (the previous
 * page's last sort values, undefined for the first page), checked as findPage's tokens are.
 */
export function keysetStart(request: PageRequest, sort: SortKey[]): unknown[] | undefined {
  if (request.page === undefined) return undefined;
  const identity = listIdentity(request, 'keyset', sort.map((s) => `${s.key}:${s.direction}`).join(','));
  const values = decodeToken(request.page, 'keyset', identity);
  if (values.length !== sort.length) throw invalidToken();
  return sort.map(({ type }, i) => decodeValue(values[i], type));
}

/** The page of such a list: `fetched` holds up to `limit + 1` rows, the extra one only telling that more follow. */
export function keysetPage<T>(fetched: T[], count: number, sort: SortKey[], request: PageRequest, valuesOf: (item: T) => unknown[]): Page<T> {
  const items = fetched.slice(0, request.limit);
  const last = items.at(-1);
  if (fetched.length <= request.limit || !last) return { items, count };
  const identity = listIdentity(request, 'keyset', sort.map((s) => `${s.key}:${s.direction}`).join(','));
  const values = valuesOf(last).map((v, i) => (sort[i]!.type === 'date' ? (v as Date).toISOString() : v));
  return { items, count, next: { page: encodeToken('keyset', identity, values) } };
}

/** Pages of a list held in memory, cut after the last item's key: stable across requests. */
export function pageOfList<T>(items: T[], key: (item: T) => string, request: PageRequest): Page<T> {
  const identity = listIdentity(request, 'array', 'key');
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const after = request.page === undefined ? undefined : decodeValue(decodeToken(request.page, 'array', identity)[0], 'string');
  const start = after === undefined ? 0 : sorted.findIndex((i) => key(i) > String(after));
  const rest = start < 0 ? [] : sorted.slice(start);
  const page = rest.slice(0, request.limit);
  const more = rest.length > page.length && page.length > 0;
  return { items: page, count: items.length, ...(more ? { next: { page: encodeToken('array', identity, [key(page.at(-1)!)]) } } : {}) };
}

const MAX_RANKED_OFFSET = 100_000;

/** Where a page of ranked results starts. */
export function rankedOffset(request: PageRequest): number {
  if (request.page === undefined) return 0;
  const [offset] = decodeToken(request.page, 'ranked', listIdentity(request, 'ranked', 'offset'));
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > MAX_RANKED_OFFSET) throw invalidToken();
  return offset;
}

/** A page of ranked results, from `offset`, of `count` in all. */
export function rankedPage<T>(items: T[], count: number, offset: number, request: PageRequest): Page<T> {
  const end = offset + items.length;
  const more = end < count && items.length > 0 && end <= MAX_RANKED_OFFSET;
  return { items, count, ...(more ? { next: { page: encodeToken('ranked', listIdentity(request, 'ranked', 'offset'), [end]) } } : {}) };
}

/** Which list a token belongs to: the operation, the token kind and the order, hashed. */
function listIdentity(request: PageRequest, kind: TokenKind, order: string): string {
  return createHash('sha256').update(`${request.list ?? ''}\n${kind}\n${order}`).digest('base64url').slice(0, 16);
}

function encodeToken(kind: TokenKind, list: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ k: kind, l: list, v: values })).toString('base64url');
}

/** The values of a token made for this list and kind; anything else is a 400. */
function decodeToken(token: string, kind: TokenKind, list: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken();
  }
  const t = parsed as { k?: unknown; l?: unknown; v?: unknown } | null;
  if (typeof t !== 'object' || t === null || !Array.isArray(t.v) || t.v.length === 0) throw invalidToken();
  if (t.k !== kind || t.l !== list) {
    throw new BadRequestError('query.page: this page token belongs to another list; pass back `next.page` of this list’s previous response');
  }
  return t.v;
}

function keysetCursor(values: unknown[], sort: SortKey[]): Record<string, unknown> {
  if (values.length !== sort.length) throw invalidToken();
  return Object.fromEntries(sort.map(({ key, type }, i) => [key, decodeValue(values[i], type)]));
}

/** The ISO form `toISOString` gives for years 0000–9999: what tokens carry and PostgreSQL stores. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A token value checked against its type: text without NUL, finite numbers, dates PostgreSQL can hold. */
function decodeValue(value: unknown, type: SortKey['type']): unknown {
  if (type === 'string' && typeof value === 'string' && value.length <= 1000 && !value.includes('\u0000')) return value;
  if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) return value;
  if (type === 'date' && typeof value === 'string' && ISO_DATE.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && date.toISOString() === value) return date;
  }
  throw invalidToken();
}

function invalidToken(): BadRequestError {
  return new BadRequestError('query.page: invalid page token; pass back `next.page` from the previous response unchanged');
}
