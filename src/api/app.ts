import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { BadRequestError, MethodNotAllowedError, NotFoundError } from '../domain/shared/errors.ts';
import type { ApiDeps, AppContext, AppState } from './context.ts';
import { healthRouter } from './health/health.router.ts';
import { mountRoutes } from './http/route.ts';
import { authenticateMiddleware } from './middleware/authenticate.ts';
import { errorMiddleware } from './middleware/errors.ts';
import { httpMetrics } from './middleware/metrics.ts';
import { registerOutboxMetrics } from './middleware/outbox-metrics.ts';
import { registerQueueMetrics } from './middleware/queue-metrics.ts';
import { requestContext } from './middleware/request-context.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { allRoutes } from './routes.ts';
import { samlLoginRouter } from './sso/saml-login.router.ts';

export type BuiltApp = { app: Koa<AppState>; metrics: Registry };

export function createApp(deps: ApiDeps, metrics: Registry = new Registry()): BuiltApp {
  if (!metrics.getSingleMetric('process_cpu_seconds_total')) collectDefaultMetrics({ register: metrics });
  registerQueueMetrics(metrics, deps.producer);
  registerOutboxMetrics(metrics, deps.orm);
  const app = new Koa<AppState>({ proxy: true });

  const registry = new OpenAPIRegistry();
  const v1 = new Router({ prefix: '/v1' });
  mountRoutes(v1, allRoutes, deps, registry);
  const openapi = buildOpenApiDocument(registry, deps.urls.location(''));
  v1.get('/openapi.json', (ctx: AppContext) => {
    ctx.body = openapi;
  });

  app.use(requestContext(deps));
  app.use(httpMetrics(metrics));
  app.use(errorMiddleware);
  // Identity providers post forms, not JSON: these endpoints parse their own bodies.
  app.use(samlLoginRouter(deps).routes());
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.bodyLimit,
      encoding: 'utf-8',
      // Everything the body parser fails on comes from the request's bytes (bad JSON, a
      // gzip body that does not inflate): a 400 unless the parser already chose a 4xx.
      onError: (err: Error & { status?: number }) => {
        if (err.status !== undefined && err.status >= 400 && err.status < 500) throw err;
        throw new BadRequestError('The request body could not be decoded', { cause: err });
      },
    }),
  );
  app.use(authenticateMiddleware);
  app.use(async (ctx: AppContext, next) => {
    await next();
    // Nothing answered: an unknown route gets the error shape too (after allowedMethods had its say).
    if (ctx.status === 404 && ctx.body == null) throw new NotFoundError(`No route for ${ctx.method} ${ctx.path}`);
  });
  const health = healthRouter(deps, metrics);
  app.use(health.routes());
  app.use(v1.routes());
  // A method no route has (TRACE, PROPFIND) is the client's mistake, not a 501 that maps to 500.
  app.use(v1.allowedMethods({ throw: true, notImplemented: () => new MethodNotAllowedError('This HTTP method is not supported') }));
  return { app, metrics };
}
