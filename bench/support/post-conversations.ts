import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../config/env.ts';
import { issueInstallationToken } from '../../src/domain/auth/tokens.ts';
import { IntegrationInstallation } from '../../src/domain/entities/integration-installation.entity.ts';
import { guardedHttpFrom } from '../../src/domain/net/guarded-http.ts';
import { LocalDiskStore } from '../../src/domain/storage/local-disk-store.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { startWorkers, type RunningWorkers } from '../../src/workers/worker.ts';
import { benchDatabaseUrl, redisUrl } from '../bench-env.ts';
import { startBenchApi } from './bench-api.ts';
import { benchOrg } from './bench-org.ts';

type BenchApi = Awaited<ReturnType<typeof startBenchApi>>;

/** The real API on the benchmark database, an organization, and an installation token of it: what integrations push with. */
export async function conversationBench() {
  const api = await startBenchApi(await benchDatabaseUrl());
  const em = api.rt.orm.em.fork();
  const { org } = await benchOrg(em);
  const installation = em.create(IntegrationInstallation, { organization: org, integration: 'bench' });
  const token = issueInstallationToken(em, installation);
  await em.flush();
  return { api, org, token };
}

/** A support conversation as integrations send it: `i` spreads `createdAt` over the last 90 days. */
export function supportConversation(id: string, i: number, messages: Array<{ role: 'user' | 'team-member'; body: string }>) {
  return {
    id,
    subject: `Ticket ${i}`,
    metadata: { url: `https://support.example.test/t/${i}`, createdAt: new Date(Date.now() - (i % 90) * 86_400_000).toISOString() },
    parts: messages.map((m) => ({ type: 'message', ...m })),
  };
}

/** Workers on the `conversations` queue of the benchmark API, in this process. */
export function conversationWorkers(api: BenchApi, slots: number, lockMs: number): RunningWorkers {
  return startWorkers({
    orm: api.rt.orm,
    log: pino({ level: 'silent' }),
    connection: { url: redisUrl, prefix: api.rt.config.queuePrefix },
    jobs,
    queues: ['conversations'],
    concurrency: { default: slots },
    lockMs,
    services: { blobs: new LocalDiskStore(join(tmpdir(), 'vellum-bench')), http: guardedHttpFrom(loadConfig()) },
  });
}

export type Posting = { base: string; orgId: string; token: string; total: number; batch: number; clients: number; conversation: (i: number) => unknown };

/** Posts conversations 0..total-1 in batches, `clients` requests at a time, as integrations do; answers the milliseconds taken. */
export async function postConversations({ base, orgId, token, total, batch, clients, conversation }: Posting): Promise<number> {
  const batches = Math.ceil(total / batch);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const body = JSON.stringify(Array.from({ length: Math.min(batch, total - b * batch) }, (_, k) => conversation(b * batch + k)));
        const res = await fetch(`${base}/v1/orgs/${orgId}/conversations`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
        if (res.status !== 204) throw new Error(`batch ${b}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  return performance.now() - started;
}
