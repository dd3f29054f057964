import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { JobOutbox } from '../../jobs/outbox.ts';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../../domain/shared/errors.ts';
import type { ApiDeps, AppContext } from '../context.ts';
import { ErrorBody } from './common.schema.ts';
import { z } from './zod.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `user` needs a user token, `installation` an integration-installation
 * token, `any` either kind. Which resources they may touch is the policy's business.
 */
export type AuthKind = 'user' | 'installation' | 'any' | 'public';

type ZodObj = z.ZodObject<z.ZodRawShape>;
type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type Reply = { status: number; body?: unknown; location?: string; headers?: Record<string, string> };

export type RouteInput<P, Q, B, A extends AuthKind> = {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  actor: A extends 'user'
    ? Extract<Actor, { kind: 'user' }>
    : A extends 'installation'
      ? Extract<Actor, { kind: 'installation' }>
      : A extends 'public'
        ? Actor | undefined
        : Actor;
  em: EntityManager;
  deps: ApiDeps;
  /** Jobs recorded here are committed with the request's changes and enqueued after. */
  outbox: JobOutbox;
};

export type RouteDef<P = unknown, Q = unknown, B = unknown, A extends AuthKind = AuthKind> = {
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
  /** Success responses: status → schema (omit the schema for an empty body). */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  handle(input: RouteInput<P, Q, B, A>): Promise<Reply>;
};

/** Declares a route once: its validation, its OpenAPI entry and its handler come from this object. */
export function defineRoute<
  P extends ZodObj | undefined = undefined,
  Q extends ZodObj | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  A extends AuthKind = 'user',
>(def: RouteDef<P, Q, B, A>): RouteDef<P, Q, B, A> {
  return def;
}

// Route definitions are heterogeneous; mounting treats them uniformly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any, any>;

export function mountRoutes(router: Router<any, any>, routes: AnyRoute[], deps: ApiDeps, registry: OpenAPIRegistry) {
  for (const route of routes) {
    register(registry, route);
    const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const add = router[route.method].bind(router) as (name: string, path: string, mw: (ctx: AppContext) => Promise<void>) => void;
    add(route.operationId, koaPath, async (ctx: AppContext) => {
      const actor = route.auth === 'public' ? ctx.state.actor : requireActor(ctx.state.actor, route.auth ?? 'user');
      const input = {
        params: parse(route.params, ctx.params, 'path'),
        query: parse(route.query, ctx.query, 'query'),
        body: parse(route.body, bodyOf(ctx), 'body'),
        actor,
        em: ctx.state.em,
        deps,
        outbox: new JobOutbox(deps.producer, ctx.state.log),
      };
      const reply = await route.handle(input);
      await input.outbox.publish(ctx.state.em);
      ctx.status = reply.status;
      if (reply.location) ctx.set('Location', reply.location);
      if (reply.headers) ctx.set(reply.headers);
      if (reply.body !== undefined) ctx.body = reply.body;
    });
  }
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
  const nul = findNul(value, [where]);
  if (nul) throw new BadRequestError(`${nul}: text must not contain NUL (\\u0000) characters`);
  const result = schema.safeParse(value);
  if (!result.success) throw new RequestValidationError(where, result.error.issues);
  return result.data;
}

/**
 * PostgreSQL cannot store NUL in text, so such input would fail deep in the driver;
 * it is refused up front, naming where it was found.
 */
function findNul(value: unknown, path: string[], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return path.join('.');
    const found = findNul(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

function describeIssues(where: string, issues: z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = [where, ...issue.path.map(String)].join('.');
      return `${field}: ${issue.message}`;
    })
    .join('; ');
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
  registry.registerPath({
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
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
