import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Runtime } from '../runtime.ts';
import { systemClock, type Clock } from '../domain/shared/clock.ts';
import { instanceSecret } from '../domain/instance-secret.ts';
import { UrlSigner } from '../domain/storage/signed-urls.ts';
import { jobs } from '../jobs/registry.ts';
import { QueueProducer } from '../jobs/producer.ts';
import { createApp } from './app.ts';
import { drainable } from './http-drain.ts';
import { Urls } from './http/urls.ts';

export type RunningServer = { server: Server; port: number; metrics: Registry; close(): Promise<void> };

/** A request must have arrived whole by then (a body shorter than its Content-Length ends in a 408, not a hang). */
const REQUEST_TIMEOUT_MS = 60_000;
const HEADERS_TIMEOUT_MS = 20_000;

/**
 * Starts the HTTP API. `close` drains (http-drain.ts) within part of the shutdown budget,
 * leaving the rest for closing queues and the ORM, then closes the producer.
 */
export async function startServer(
  rt: Runtime,
  opts: { port?: number; host?: string; clock?: Clock; requestTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const producer = new QueueProducer({ url: rt.config.redisUrl, prefix: rt.config.queuePrefix }, jobs, rt.log);
  const secret = rt.config.signingSecret ?? (await instanceSecret(rt.orm.em.fork(), 'url-signing'));
  const { app, metrics } = createApp({ ...rt, urls: new Urls(rt.config), producer, clock: opts.clock ?? systemClock, signer: new UrlSigner(secret) });
  const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer({
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    // How often node looks for requests past those timeouts (its default, 30 s, would add up to that).
    connectionsCheckingInterval: Math.min(5000, requestTimeout / 2),
  });
  const drain = drainable(server, app.callback());
  server.on('request', drain.listener);
  // Below the drain budget, so an idle keep-alive connection never outlives a shutdown; a
  // load balancer in front must time idle connections out sooner than this.
  server.keepAliveTimeout = Math.min(65_000, Math.floor(rt.config.shutdownTimeoutMs / 2));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? rt.config.port, opts.host ?? rt.config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? rt.config.port);
  rt.log.info({ port }, 'API listening');
  return {
    server,
    port,
    metrics,
    close: async () => {
      await drain.drain(Math.floor(rt.config.shutdownTimeoutMs * 0.6));
      await producer.close();
    },
  };
}
