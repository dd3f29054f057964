import type { Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { AppContext } from '../context.ts';

/** Request counts by route and status, and a latency histogram; route is the template, never the raw path. */
export function httpMetrics(registry: Registry) {
  const requests = new Counter({
    name: 'vellum_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'vellum_http_request_duration_seconds',
    help: 'HTTP request latency by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return async (ctx: AppContext, next: Next) => {
    const end = duration.startTimer();
    try {
      await next();
    } finally {
      const route = ctx._matchedRoute ? String(ctx._matchedRoute) : 'unmatched';
      end({ method: ctx.method, route });
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
    }
  };
}
