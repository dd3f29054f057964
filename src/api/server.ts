import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Runtime } from '../runtime.ts';
import { systemClock, type Clock } from '../domain/shared/clock.ts';
import { instanceSecret } from '../domain/instance-secret.ts';
import { UrlSigner } from '../domain/storage/signed-urls.ts';
import { jobs } from '../jobs/registry.ts';
import { QueueProducer } from '../jobs/producer.ts';
import { createApp } from './app.ts';
import { Urls } from './http/urls.ts';

export type RunningServer = { server: Server; port: number; metrics: Registry; close(): Promise<void> };

/** Starts the HTTP API. `close` stops accepting, lets in-flight requests finish, then drops idle sockets. */
export async function startServer(rt: Runtime, opts: { port?: number; host?: string; clock?: Clock } = {}): Promise<RunningServer> {
  const producer = new QueueProducer({ url: rt.config.redisUrl, prefix: rt.config.queuePrefix }, jobs, rt.log);
  const secret = rt.config.signingSecret ?? (await instanceSecret(rt.orm.em.fork(), 'url-signing'));
  const { app, metrics } = createApp({ ...rt, urls: new Urls(rt.config), producer, clock: opts.clock ?? systemClock, signer: new UrlSigner(secret) });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).then(() => producer.close()),
  };
}
