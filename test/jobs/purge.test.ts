import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeDeletedSpaces } from '../../src/domain/content/purge.ts';
import { ContentPermission } from '../../src/domain/entities/content-permission.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { fixedClock } from '../../src/domain/shared/clock.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { JobContext } from '../../src/jobs/define-job.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { DAY_MS, purgeSpacesJob } from '../../src/jobs/purge-spaces.job.ts';
import { defineSchedule } from '../../src/jobs/schedules.ts';
import { enqueueTick } from '../../src/workers/scheduler.ts';
import { startWorkers } from '../../src/workers/worker.ts';
import { buildMember, buildOrg, buildSpace } from '../support/factories.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';
import { NO_OUTBOX_PASSES, waitFor } from '../support/test-jobs.ts';

// Far in the past, so spaces other test files put in the bin are never due here.
const T0 = new Date('2019-12-01T00:00:00Z');
const RETENTION = 7 * DAY_MS;
const log = pino({ level: 'silent' });
let orm: Orm;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 4 });
});
afterAll(() => orm.close(true));

/** Spaces of a fresh organization, `binnedAt` days after T0 (null: not deleted), each with a grant. */
async function spacesDeletedAt(...binnedAt: Array<number | null>) {
  const em = orm.em.fork();
  const { org, owner } = await buildOrg(em);
  const reader = await buildMember(em, org, 'read');
  const spaces: Space[] = [];
  for (const days of binnedAt) {
    const space = await buildSpace(em, org, owner);
    em.create(ContentPermission, { organization: org, space, user: reader.user, role: 'edit' });
    space.deletedAt = days === null ? null : new Date(T0.getTime() + days * DAY_MS);
    spaces.push(space);
  }
  await em.flush();
  return spaces;
}

async function remaining(spaces: Space[]) {
  const ids = spaces.map((s) => s.id);
  const em = orm.em.fork();
  return {
    spaces: (await em.find(Space, { id: { $in: ids } })).map((s) => s.id),
    revisions: await em.count(Revision, { space: { $in: ids } }),
    grants: await em.count(ContentPermission, { space: { $in: ids } }),
  };
}

function context(clock: ReturnType<typeof fixedClock>): JobContext {
  const producer = new QueueProducer({ url: testRedisUrl(), prefix: `vt${newId()}` }, [], log);
  return { em: orm.em.fork(), log, clock, outbox: new JobOutbox(producer, log), attempt: 1, services: testJobServices(), reportProgress: async () => undefined };
}

describe('purging the bin', () => {
  it('removes only spaces past the retention window, with what they own, and is safe to run twice', async () => {
    const [old, recent, live] = await spacesDeletedAt(0, 5, null);
    const clock = fixedClock(new Date(T0.getTime() + 6 * DAY_MS));
    await purgeSpacesJob.handle({ retentionMs: RETENTION }, context(clock));
    expect((await remaining([old!, recent!, live!])).spaces).toHaveLength(3);

    clock.set(new Date(T0.getTime() + 8 * DAY_MS));
    await purgeSpacesJob.handle({ retentionMs: RETENTION }, context(clock));
    const after = await remaining([old!]);
    expect(after).toEqual({ spaces: [], revisions: 0, grants: 0 });
    expect((await remaining([recent!, live!])).spaces.sort()).toEqual([recent!.id, live!.id].sort());

    await purgeSpacesJob.handle({ retentionMs: RETENTION }, context(clock));
    expect((await remaining([recent!, live!])).spaces).toHaveLength(2);
  });

  it('leaves whole spaces behind when interrupted, and the retry finishes the job', async () => {
    const spaces = await spacesDeletedAt(0, 0, 0, 0, 0);
    const clock = fixedClock(new Date(T0.getTime() + 30 * DAY_MS));
    let batches = 0;
    const crash = purgeDeletedSpaces(orm.em.fork(), clock, {
      retentionMs: RETENTION,
      batchSize: 2,
      onBatch: async () => {
        batches += 1;
        if (batches === 1) throw new Error('worker killed');
      },
    });
    await expect(crash).rejects.toThrow('worker killed');
    const halfway = await remaining(spaces);
    expect(halfway.spaces.length).toBeLessThan(5);
    // Every space still there is whole: its revision and its grant are still there too.
    expect(halfway.revisions).toBe(halfway.spaces.length);
    expect(halfway.grants).toBe(halfway.spaces.length);
    await purgeDeletedSpaces(orm.em.fork(), clock, { retentionMs: RETENTION, batchSize: 2 });
    expect(await remaining(spaces)).toEqual({ spaces: [], revisions: 0, grants: 0 });
  });

  it('runs from the schedule through a worker', async () => {
    const [old] = await spacesDeletedAt(0);
    const prefix = `vt${newId()}`;
    const clock = fixedClock(new Date(T0.getTime() + 10 * DAY_MS));
    const producer = new QueueProducer({ url: testRedisUrl(), prefix }, [purgeSpacesJob], log);
    const workers = startWorkers({
      orm,
      log,
      connection: { url: testRedisUrl(), prefix },
      jobs: [purgeSpacesJob],
      queues: ['maintenance'],
      concurrency: { default: 1 },
      lockMs: 30_000,
      clock,
      ...NO_OUTBOX_PASSES,
      services: testJobServices(),
    });
    try {
      const schedule = defineSchedule({ name: 'purge-deleted-spaces', cron: '0 * * * *', job: purgeSpacesJob, payload: () => ({ retentionMs: RETENTION }) });
      await enqueueTick(producer, schedule, clock.now());
      await waitFor(async () => (await remaining([old!])).spaces.length === 0, 10_000, 'purge to run');
    } finally {
      await workers.close();
      await producer.close();
    }
  });

  it('refuses a payload without a retention window', () => {
    expect(purgeSpacesJob.payload.safeParse({}).success).toBe(false);
    expect(purgeSpacesJob.payload.safeParse({ retentionMs: -1 }).success).toBe(false);
  });
});
