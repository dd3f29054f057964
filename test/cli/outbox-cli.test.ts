import { MikroORM } from '@mikro-orm/postgresql';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEntry } from '../../src/domain/entities/outbox-entry.entity.ts';
import { migrateDatabase } from '../../src/domain/migrate.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { QUEUES } from '../../src/jobs/queues.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';

// `outbox:retry --all` and the parked totals cover the whole table: a database of its own.
const url = testDatabaseUrl().replace(/\/([^/]+)$/, '/$1_outbox');
const bin = fileURLToPath(new URL('../../bin/vellum', import.meta.url));
let orm: Orm;
let api: TestApi;

beforeAll(async () => {
  const admin = await MikroORM.init({ clientUrl: url.replace(/\/[^/]+$/, '/postgres'), entities: [], discovery: { warnWhenNoEntities: false } });
  await admin.em.getConnection().execute(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  await admin.close(true);
  await migrateDatabase(url);
  orm = await openOrm({ databaseUrl: url, poolMax: 2 });
  api = await startTestApi({ DATABASE_URL: url });
});
afterAll(async () => {
  await api.close();
  await orm.close(true);
});

async function vellum(...args: string[]) {
  const env = { ...process.env, DATABASE_URL: url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: `vt${newId()}`, LOG_LEVEL: 'silent' };
  return promisify(execFile)(bin, args, { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}
const json = async (...args: string[]) => JSON.parse((await vellum(...args, '--json')).stdout);

async function row(name: string, parkedSecondsAgo: number | null) {
  const em = orm.em.fork();
  const parked = parkedSecondsAgo === null ? {} : { parkedAt: new Date(Date.now() - parkedSecondsAgo * 1000), parkReason: `No job named "${name}" is declared in this release` };
  const entry = em.create(OutboxEntry, { id: newId(), queue: 'maintenance', name, payload: { key: 'k' }, delayMs: 0, ...parked });
  await em.flush();
  return entry.id;
}
const rowOf = (id: string) => orm.em.fork().findOne(OutboxEntry, { id });

describe('parked outbox rows, for operators', () => {
  it('are counted per queue and job name by `queues --json` and /metrics, and listed by `outbox:parked`', async () => {
    const a = await row('test.renamed', 120);
    const b = await row('test.renamed', 10);
    await row('test.record', null); // not parked

    const { queues, parked } = await json('queues');
    expect(queues.map((q: { queue: string }) => q.queue)).toEqual([...QUEUES]);
    expect(parked).toEqual([{ queue: 'maintenance', name: 'test.renamed', count: 2, oldestParkedSeconds: expect.any(Number), reason: expect.stringMatching(/No job named/) }]);
    expect(parked[0].oldestParkedSeconds).toBeGreaterThanOrEqual(120);

    const listed = await json('outbox:parked');
    expect(listed.parked.map((r: { id: string }) => r.id)).toEqual([a, b]);

    const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
    expect(metrics).toContain('vellum_outbox_parked_rows{queue="maintenance",name="test.renamed"} 2');
    expect(metrics).toMatch(/vellum_outbox_parked_oldest_seconds\{queue="maintenance",name="test.renamed"\} 1[2-9]\d/);
  }, 60_000);

  it('are handed back to the relay by `outbox:retry`, one or all, and given up by `outbox:drop`', async () => {
    const [one, two, three] = [await row('test.gone', 5), await row('test.gone', 5), await row('test.gone', 5)];
    const live = await row('test.record', null);

    expect(await json('outbox:retry', one)).toEqual({ retried: 1 });
    expect(await rowOf(one)).toMatchObject({ parkedAt: null, parkReason: null });
    expect(await json('outbox:drop', two)).toEqual({ dropped: 1 });
    expect(await rowOf(two)).toBeNull();

    // A row that is not parked is work still owed: it cannot be dropped.
    const refused = await vellum('outbox:drop', live);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^vellum: .*not found/i);
    expect(await rowOf(live)).not.toBeNull();
    expect((await vellum('outbox:retry')).code).toBe(2);

    expect((await json('outbox:retry', '--all')).retried).toBeGreaterThanOrEqual(1);
    expect((await rowOf(three))!.parkedAt).toBeNull();
    expect((await json('queues')).parked).toEqual([]);
    const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
    expect(metrics).not.toContain('vellum_outbox_parked_rows{');
  }, 60_000);
});
