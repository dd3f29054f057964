import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { ApiDeps, AppContext } from '../context.ts';

const PROBE_TIMEOUT_MS = 2000;

/** Liveness, readiness (PostgreSQL and Redis reachable) and Prometheus metrics; no token needed. */
export function healthRouter(deps: ApiDeps, registry: Registry): Router {
  const router = new Router();
  router.get('/healthz', (ctx: AppContext) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx: AppContext) => {
    const [database, redis] = await Promise.all([
      probe(() => deps.orm.em.getConnection().execute('select 1')),
      probe(() => deps.redis.ping()),
    ]);
    const ready = database && redis;
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', checks: { database: up(database), redis: up(redis) } };
  });
  router.get('/metrics', async (ctx: AppContext) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

async function probe(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function up(ok: boolean) {
  return ok ? 'up' : 'down';
}
