import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { JobOutbox } from '../../jobs/outbox.ts';
import { authorize, type ActionChoice, type Resource, type Rules } from '../../domain/policy/authorize.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../domain/shared/errors.ts';
import type { ApiDeps, AppContext } from '../context.ts';
import { ErrorBody } from './common.schema.ts';
import { assertStorableInput } from './input-guards.ts';
import { z } from './zod.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `user` needs a user token, `installation` an integration-installation
 * token, `any` either kind. Which resources they may touch is the policy's business.
 */
export type AuthKind = 'user' | 'installation' | 'any' | 'public';

type ZodObj = z.ZodObject<z.ZodRawShape>;
type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type Reply = {
  status: number;
  body?: unknown;
  location?: string;
  headers?: Record<string, string>;
  /**
   * The answer, decided once the handler's writes are committed and its jobs enqueued (e.g.
   * after waiting a bounded time for the job's result); replaces this reply.
   */
  afterCommit?: () => Promise<Reply>;
};

type Caller<A extends AuthKind> = A extends 'user'
  ? Extract<Actor, { kind: 'user' }>
  : A extends 'installation'
    ? Extract<Actor, { kind: 'installation' }>
    : A extends 'public'
      ? Actor | undefined
      : Actor;

/** A paged query also carries the list it pages, so a token of one list is refused by another. */
type WithList<Q> = Q extends { limit: number } ? Q & { list: string } : Q;

/** The request once validated: what loaders, action choices and handlers read. */
export type Validated<P, Q, B> = { params: Infer<P>; query: WithList<Infer<Q>>; body: Infer<B> };

export type RouteInput<P, Q, B, A extends AuthKind, S = undefined, T extends boolean = false> = Validated<P, Q, B> & {
  actor: Caller<A>;
  em: EntityManager;
  deps: ApiDeps;
  /** The loaded subject, already authorized (undefined on routes without `load`). */
  subject: S;
} & (T extends true ? { /** Jobs recorded here commit with the handler's writes and are enqueued after. */ outbox: JobOutbox } : unknown);

/** The permission a route needs: a rule of the subject's module, fixed or chosen from the request. */
export type RoutePermission<R, I> = {
  rules: R;
  action: (keyof R & string) | ActionChoice<keyof R & string, I>;
};

export type RouteDef<P = unknown, Q = unknown, B = unknown, A extends AuthKind = AuthKind, S = undefined, V = unknown, R = Rules<V>, T extends boolean = false> = {
  method: Method;
  /** OpenAPI form, relative to /v1: `/orgs/{organizationId}`. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  auth?: A;
  params?: P;
  query?: Q;
  body?: B;
  /** Loads the subject (404 when the caller may not see it) before the handler runs. */
  load?: Resource<S, V, Validated<P, Q, B> & { actor: Caller<A> }>;
  /** The rule the loaded subject must pass (403 otherwise); documented in the OpenAPI document. */
  authorize?: RoutePermission<R, Validated<P, Q, B> & { actor: Caller<A>; subject: S }>;
  /** For idempotent deletes: the status answered when the loader finds nothing (a NotFoundError). */
  ifMissing?: number;
  /**
   * Runs load, authorization and handler in one transaction; jobs recorded in the `outbox`
   * (only given to transactional routes) are enqueued after it commits.
   */
  transactional?: T;
  /** Success responses: status → schema (omit the schema for an empty body). */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  handle(input: RouteInput<P, Q, B, A, S, T>): Promise<Reply>;
};

/** Declares a route once: its validation, authorization, OpenAPI entry and handler come from this object. */
export function defineRoute<
  P extends ZodObj | undefined = undefined,
  Q extends ZodObj | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  A extends AuthKind = 'user',
  S = undefined,
  V = unknown,
  R extends Rules<V> = Rules<V>,
  T extends boolean = false,
>(def: RouteDef<P, Q, B, A, S, V, R, T>): RouteDef<P, Q, B, A, S, V, R, T> {
  return def;
}

// Route definitions are heterogeneous; mounting treats them uniformly.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyRoute = Omit<RouteDef, 'auth' | 'params' | 'query' | 'body' | 'load' | 'authorize' | 'transactional' | 'handle'> & {
  auth?: AuthKind;
  params?: ZodObj;
  query?: ZodObj;
  body?: z.ZodType;
  load?: Resource<any, any, any>;
  authorize?: { rules: Rules<any>; action: string | ActionChoice<string, any> };
  transactional?: boolean;
  handle(input: any): Promise<Reply>;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export function mountRoutes(router: Router<any, any>, routes: AnyRoute[], deps: ApiDeps, registry: OpenAPIRegistry) {
  for (const route of routes) {
    // A rule needs a subject to judge: an authorization without a loader would never run.
    if (route.authorize && !route.load) throw new Error(`${route.operationId}: \`authorize\` needs a \`load\``);
    assertPathParams(route);
    register(registry, route);
    const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const add = router[route.method].bind(router) as (name: string, path: string, mw: (ctx: AppContext) => Promise<void>) => void;
    add(route.operationId, koaPath, async (ctx: AppContext) => {
      const actor = route.auth === 'public' ? ctx.state.actor : requireActor(ctx.state.actor, route.auth ?? 'user');
      const query = parse(route.query, ctx.query, 'query');
      const validated = {
        params: parse(route.params, ctx.params, 'path'),
        query: isPaged(query) ? { ...query, list: route.operationId } : query,
        body: parse(route.body, bodyOf(ctx), 'body'),
      };
      const outbox = route.transactional ? new JobOutbox(deps.producer, ctx.state.log) : undefined;
      const run = (em: EntityManager) => runRoute(route, { ...validated, actor, em, deps, ...(outbox ? { outbox } : {}) });
      let reply = route.transactional ? await ctx.state.em.transactional(run) : await run(ctx.state.em);
      // After commit only: a job is never enqueued for a change that rolled back.
      if (outbox) await outbox.publish(ctx.state.em);
      if (reply.afterCommit) reply = await reply.afterCommit();
      ctx.status = reply.status;
      if (reply.location) ctx.set('Location', reply.location);
      if (reply.headers) ctx.set(reply.headers);
      if (reply.body !== undefined) ctx.body = reply.body;
    });
  }
}

type RunInput = Record<string, unknown> & { actor: Actor | undefined; em: EntityManager };

/** load → authorize → handle, on the request's EntityManager or the route's transaction. */
async function runRoute(route: AnyRoute, input: RunInput): Promise<Reply> {
  let subject: unknown;
  if (route.load) {
    try {
      // Only public routes run without an actor, and none of them loads a subject.
      subject = await route.load.load(input.em, input.actor as Actor, input);
    } catch (err) {
      if (route.ifMissing !== undefined && err instanceof NotFoundError) return { status: route.ifMissing };
      throw err;
    }
    if (route.authorize) {
      const { rules, action } = route.authorize;
      const chosen = typeof action === 'string' ? action : action.choose({ ...input, subject });
      if (chosen !== null) authorize(rules, route.load.view(subject), chosen);
    }
  }
  return route.handle({ ...input, subject });
}

/**
 * A path parameter is always present, so the OpenAPI document must declare exactly the
 * path's `{names}`, each required: a missing, extra or optional one makes the document
 * invalid and code generators refuse it.
 */
function assertPathParams(route: AnyRoute) {
  const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
  const shape = route.params?.shape ?? {};
  const declared = Object.keys(shape).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${route.operationId}: path ${route.path} has parameters [${inPath.join(', ')}], \`params\` declares [${declared.join(', ')}]`);
  }
  const optional = declared.filter((name) => (shape[name] as z.ZodType).safeParse(undefined).success);
  if (optional.length) throw new Error(`${route.operationId}: path parameters cannot be optional: ${optional.join(', ')}`);
}

function isPaged(query: unknown): query is { limit: number } {
  return typeof query === 'object' && query !== null && typeof (query as { limit?: unknown }).limit === 'number';
}

function requireActor(actor: Actor | undefined, auth: Exclude<AuthKind, 'public'>): Actor {
  if (!actor) throw new UnauthorizedError('Missing or invalid API token: send `Authorization: Bearer <token>`');
  if (auth === 'user' && actor.kind !== 'user') throw new ForbiddenError('This operation requires a user token');
  if (auth === 'installation' && actor.kind !== 'installation') {
    throw new ForbiddenError('This operation requires an integration installation token');
  }
  return actor;
}

/** An absent JSON body (the client sends Content-Type without one) reads as an empty object. */
function bodyOf(ctx: AppContext): unknown {
  const raw = ctx.request.rawBody;
  if (raw === undefined || raw.trim() === '') return undefined;
  return ctx.request.body;
}

export class RequestValidationError extends Error {
  readonly where: 'path' | 'query' | 'body';
  readonly issues: z.core.$ZodIssue[];

  constructor(where: 'path' | 'query' | 'body', issues: z.core.$ZodIssue[]) {
    super(describeIssues(where, issues));
    this.where = where;
    this.issues = issues;
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'path' | 'query' | 'body'): unknown {
  if (!schema) return undefined;
  assertStorableInput(value, where);
  const result = schema.safeParse(value);
  if (!result.success) throw new RequestValidationError(where, result.error.issues);
  return result.data;
}

function describeIssues(where: string, issues: z.core.$ZodIssue[]): string {
  return chosenBranches(issues)
    .slice(0, 5)
    .map((issue) => {
      const field = [where, ...issue.path.map(String)].join('.');
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * A union the input failed reports the errors of the branch its type chose (the array form
 * of a body for an array: `body.3.parts.0.role`), rather than zod's bare "Invalid input".
 * When the type fits several branches, or none, the union's own issue stays.
 */
function chosenBranches(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue];
    const wrongType = (errs: z.core.$ZodIssue[]) => errs.length === 1 && errs[0]!.code === 'invalid_type' && errs[0]!.path.length === 0;
    const fitting = issue.errors.filter((errs) => !wrongType(errs));
    if (fitting.length !== 1) return [issue];
    return chosenBranches(fitting[0]!).map((e) => ({ ...e, path: [...issue.path, ...e.path] }));
  });
}

function register(registry: OpenAPIRegistry, route: AnyRoute) {
  const responses: Record<number, ResponseConfig> = {};
  for (const [status, res] of Object.entries(route.responses)) {
    responses[Number(status)] = res.schema
      ? { description: res.description, content: { 'application/json': { schema: res.schema } } }
      : { description: res.description };
  }
  for (const status of [400, 401, 403, 404]) {
    responses[status] ??= { description: 'Error', content: { 'application/json': { schema: ErrorBody } } };
  }
  const permission = permissionOf(route);
  registry.registerPath({
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: permission.sentence,
    'x-vellum-permission': permission.extension,
    tags: route.tags,
    security: route.auth === 'public' ? [] : [{ bearer: [] }],
    request: {
      params: route.params,
      query: route.query,
      body: route.body
        ? { content: { 'application/json': { schema: route.body } }, required: !route.body.safeParse(undefined).success }
        : undefined,
    },
    responses,
  });
}

/**
 * The permission an operation needs, as the OpenAPI document states it: a sentence in the
 * description and `x-vellum-permission` ({resource, actions, rules}) for tools.
 */
function permissionOf(route: AnyRoute): { sentence: string; extension: Record<string, unknown> } {
  if (route.auth === 'public') return { sentence: 'No token needed.', extension: { resource: null, actions: [] } };
  if (!route.load || !route.authorize) {
    const who = route.auth === 'installation' ? 'integration installation token' : route.auth === 'any' ? 'valid token' : 'user token';
    return { sentence: `Any ${who} may call this operation; no rule of a resource applies.`, extension: { resource: null, actions: [] } };
  }
  const resource = route.load.name;
  const { rules, action } = route.authorize as { rules: Rules<unknown>; action: string | ActionChoice<string, unknown> };
  const actions = typeof action === 'string' ? [action] : [...action.actions];
  const wording = Object.fromEntries(actions.map((a) => [a, rules[a]?.doc ?? a]));
  const needs = actions.map((a) => `\`${a}\` (${wording[a]})`).join(' or ');
  const choice = typeof action === 'string' ? '' : ` ${action.doc}`;
  return {
    sentence: `Needs permission ${needs} on the ${resource}.${choice}`,
    extension: { resource, actions, rules: wording, ...(typeof action === 'string' ? {} : { choice: action.doc }) },
  };
}
