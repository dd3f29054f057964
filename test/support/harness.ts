import { GitBookAPI } from '@gitbook/api';
// The package's index.d.ts imports './client' without an extension, which NodeNext
// resolution cannot follow; the typed surface is taken from the file itself.
import type { Api, MemberRole, TeamMemberRole } from '../../node_modules/@gitbook/api/dist/client.d.ts';

export type GitBookClient = Api<{ authToken?: string }>;
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../../config/env.ts';
import { startServer, type RunningServer } from '../../src/api/server.ts';
import type { Clock } from '../../src/domain/shared/clock.ts';
import { closeRuntime, openRuntime, type Runtime } from '../../src/runtime.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from './test-env.ts';
import { NO_OUTBOX_PASSES } from './test-jobs.ts';
import type { QueueName } from '../../src/jobs/queues.ts';
import type { JobServices } from '../../src/jobs/define-job.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type RawResponse = { status: number; body: any; headers: Headers };

export type TestApi = {
  rt: Runtime;
  http: RunningServer;
  baseUrl: string;
  /** A fresh EntityManager for factories and for reading back what a request changed. */
  em(): EntityManager;
  /** The published GitBook client, pointed at this server. */
  client(token?: string): GitBookClient;
  request(method: string, path: string, opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<RawResponse>;
  close(): Promise<void>;
};

/** The real API on a random loopback port, against the test database and Redis. */
export async function startTestApi(env: Record<string, string> = {}, opts: { clock?: Clock } = {}): Promise<TestApi> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: testRedisUrl(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://vellum.test',
    // Test files run in parallel against one server (max_connections 100 by default).
    DATABASE_POOL_MAX: '4',
    // Each test API has queues of its own, so no worker elsewhere takes its jobs.
    QUEUE_PREFIX: `vt${newId()}`,
    STORAGE_DIR: join(tmpdir(), 'vellum-test-storage'),
    ...env,
  });
  const rt = await openRuntime('test', config);
  const http = await startServer(rt, { port: 0, host: '127.0.0.1', ...(opts.clock ? { clock: opts.clock } : {}) });
  const baseUrl = `http://127.0.0.1:${http.port}`;
  return {
    rt,
    http,
    baseUrl,
    em: () => rt.orm.em.fork(),
    client: (token) => new GitBookAPI({ endpoint: baseUrl, ...(token ? { authToken: token } : {}) }) as unknown as GitBookClient,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await http.close();
      await closeRuntime(rt);
    },
  };
}

/**
 * The client's types spell roles as TypeScript enums; on the wire they are the same
 * strings. These turn the strings into the enum types for type-checking only.
 */
export const role = (r: 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read') => r as unknown as MemberRole;
export const teamRole = (r: 'owner' | 'member') => r as unknown as TeamMemberRole;

/** Real workers on the test API's queues, with the test job services (loopback allowed) unless given others. */
export function startTestWorkers(api: TestApi, queues: QueueName[], services: JobServices = testJobServices()): RunningWorkers {
  return startWorkers({
    orm: api.rt.orm,
    log: api.rt.log,
    connection: { url: testRedisUrl(), prefix: api.rt.config.queuePrefix },
    jobs,
    queues,
    concurrency: { default: 2 },
    lockMs: 30_000,
    services,
    ...NO_OUTBOX_PASSES,
  });
}
