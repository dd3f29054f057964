import type { Next } from 'koa';
import { randomUUID } from 'node:crypto';
import type { ApiDeps, AppContext } from '../context.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Gives each request an id (kept from X-Request-Id when sane), a child logger and its own EntityManager fork. */
export function requestContext(deps: ApiDeps) {
  return async (ctx: AppContext, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.state.log = deps.log.child({ requestId });
    ctx.state.em = deps.orm.em.fork();
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, route: ctx._matchedRoute, status: ctx.status, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    }
  };
}
