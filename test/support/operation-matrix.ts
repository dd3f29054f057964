import { ROLES, type Role } from '../../src/domain/shared/roles.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { Caller, buildCast } from './factories.ts';
import type { TestApi } from './harness.ts';

/**
 * The five-case operation matrix: one row per operationId states only what that
 * operation knows (its subject, a good and a bad input, its success status); the
 * runner in test/api/operation-matrix.test.ts asks every row the same five questions.
 */
export type Cast = Awaited<ReturnType<typeof buildCast<Exclude<Role, 'admin'> | 'guest'>>>;
export type MatrixContext = { api: TestApi; cast: Cast };
export type PathParams = Record<string, string>;

export type MatrixCase = 'success' | 'badInput' | 'unknownId' | 'otherOrganization' | 'roleTooLow';

export type MatrixRow = {
  operationId: string;
  /** Builds (or reuses) the operation's subject; returns the path parameters. */
  subject(ctx: MatrixContext): Promise<PathParams>;
  /** The valid body, or a function of the context for bodies that name other subjects. */
  body?: unknown;
  query?: string;
  /** Input the operation must refuse with 400; omitted when it takes none. */
  bad?: { body?: unknown; query?: string };
  status: number;
  /** The operation destroys its subject: build a fresh one for each case. */
  destroys?: boolean;
  /** A read (as the organization's admin) whose answer must not change after a refused request. */
  observe?(params: PathParams): string;
  /** Overrides the role derived from x-vellum-permission (null: no role is too low; say why). */
  tooLow?: { role: Role | 'guest'; status: 403 | 404 } | null;
  /**
   * A case that fails today because of a known bug: the runner marks it `it.fails` so the
   * suite stays green and the case starts failing (to be flipped) the day the bug is fixed.
   */
  knownBug?: { case: MatrixCase; bug: string };
  /** The route's documented answer for a subject the caller cannot see (e.g. idempotent DELETE: 204). */
  ifMissing?: number;
  /**
   * Callers for operations only an integration installation may call (no user role passes):
   * `allowed` replaces the admin in the first three cases, `outsider` is another
   * organization's installation, `tooLow` a caller of the wrong kind and its status.
   */
  callers?(ctx: MatrixContext): Promise<{ allowed: string; outsider: string; tooLow: { token: string; status: 403 | 404 } }>;
};

type Permission = { resource: string | null; actions: string[]; rules?: Record<string, string> };

/**
 * The role just below the weakest one the served document's rule wording lets pass
 * ("role edit or above" -> review, "organization admin" -> create, "member with an
 * organization role" -> guest), and the status it gets: a guest does not see content
 * it has no grant on (404), while a member refused an organization action gets 403.
 * Null when the wording names no role (the row must then say).
 */
export function roleJustTooLow(permission: Permission | undefined): { role: Role | 'guest'; status: 403 | 404 } | null {
  let needed: Role | 'member' | null = null;
  const weaker = (r: Role | 'member') => needed === null || rank(r) < rank(needed);
  for (const text of Object.values(permission?.rules ?? {})) {
    const m = /role (\w+) or above/.exec(text);
    let role: Role | 'member' | null = null;
    if (m && (ROLES as readonly string[]).includes(m[1]!)) role = m[1] as Role;
    else if (/^(organization admin|admin of the organization)/.test(text)) role = 'admin';
    else if (/^member with an organization role/.test(text)) role = 'member';
    if (role && weaker(role)) needed = role;
  }
  if (needed === null) return null;
  if (needed === 'member') return { role: 'guest', status: 403 };
  const below = ROLES[ROLES.indexOf(needed) + 1];
  if (below) return { role: below, status: 403 };
  return { role: 'guest', status: permission?.resource === 'organization' ? 403 : 404 };
}

const rank = (r: Role | 'member') => (r === 'member' ? 0 : ROLES.length - ROLES.indexOf(r));

/** Every `{name}` of a path filled from params. */
export function fillPath(path: string, params: PathParams): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

/** Well-formed ids that exist nowhere (a slug for slug parameters). */
export function unknownParams(params: PathParams): PathParams {
  return Object.fromEntries(Object.keys(params).map((k) => [k, /slug/i.test(k) ? `no-such-${newId().toLowerCase().slice(0, 8)}` : newId()]));
}

export function callerFor(cast: Cast, role: Role | 'guest'): Caller {
  return role === 'admin' ? cast.admin : cast.members[role];
}
