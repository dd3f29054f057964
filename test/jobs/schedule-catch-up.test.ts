import cron, { type ScheduledTask } from 'node-cron';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { defineSchedule } from '../../src/jobs/schedules.ts';
import { catchUpTicks, fireTick, type Ticking } from '../../src/workers/schedule-catch-up.ts';
import { startScheduler, tickJobId } from '../../src/workers/scheduler.ts';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';
import { recordJob, testJobs, waitFor } from '../support/test-jobs.ts';

const log = pino({ level: 'silent' });
let orm: Orm;
const tasks: ScheduledTask[] = [];
const at = (iso: string) => new Date(`2026-11-21T${iso}Z`);

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 2 });
});
afterAll(async () => {
  await Promise.all(tasks.map((t) => t.destroy()));
  await orm.close(true);
});

/** An hourly schedule of its own (the ticks table is shared by parallel files). */
function hourly(): Ticking {
  const name = `test-hourly-${newId()}`;
  const task = cron.createTask('0 * * * *', () => undefined);
  tasks.push(task);
  return { schedule: defineSchedule({ name, cron: '0 * * * *', job: recordJob, payload: () => ({ key: `vellum-test:${name}` }) }), match: (d) => task.match(d) };
}

async function withProducers(run: (up: QueueProducer, down: QueueProducer) => Promise<void>) {
  const prefix = `vt${newId()}`;
  const up = new QueueProducer({ url: testRedisUrl(), prefix }, testJobs, log);
  const down = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix }, testJobs, log);
  try {
    await run(up, down);
  } finally {
    await up.close();
    await down.close().catch(() => undefined);
  }
}

const queued = async (producer: QueueProducer) => (await producer.queue('maintenance').getJobs(['waiting'])).map((j) => j.id).sort();

describe('schedule ticks missed while Redis was unreachable', () => {
  it('are enqueued once Redis is back, once', async () => {
    const ticking = hourly();
    const { name } = ticking.schedule;
    await withProducers(async (up, down) => {
      expect(await catchUpTicks(orm.em.fork(), up, [ticking], at('09:30:00'), log)).toEqual([]); // first sight: nothing owed
      // The 10:00 tick fires while Redis is unreachable.
      await expect(fireTick(orm.em.fork(), down, ticking.schedule, at('10:00:00'))).rejects.toThrow();
      expect(await queued(up)).toEqual([]);

      // Redis answers again: the next pass enqueues the missed tick, under the id the tick would have had.
      expect(await catchUpTicks(orm.em.fork(), up, [ticking], at('10:07:00'), log)).toEqual([tickJobId(name, at('10:00:00'))]);
      expect(await catchUpTicks(orm.em.fork(), up, [ticking], at('10:07:30'), log)).toEqual([]);
      expect(await queued(up)).toEqual([tickJobId(name, at('10:00:00'))]);
    });
  });

  it('are caught up by a scheduler as it starts', async () => {
    const ticking = hourly();
    const { name } = ticking.schedule;
    await withProducers(async (up) => {
      await catchUpTicks(orm.em.fork(), up, [ticking], at('09:30:00'), log); // last seen days ago
      const scheduler = startScheduler(up, [ticking.schedule], log, orm);
      try {
        const lastHour = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
        await waitFor(async () => (await queued(up)).length > 0, 10_000, 'the catch-up tick');
        expect(await queued(up)).toEqual([tickJobId(name, lastHour)]);
      } finally {
        await scheduler.close();
      }
    });
  });

  it('are made up by one tick however many periods were missed, and not after a tick that went through', async () => {
    const ticking = hourly();
    const { name } = ticking.schedule;
    await withProducers(async (up) => {
      await catchUpTicks(orm.em.fork(), up, [ticking], at('03:10:00'), log);
      expect(await catchUpTicks(orm.em.fork(), up, [ticking], at('10:07:00'), log)).toEqual([tickJobId(name, at('10:00:00'))]);
      // The 11:00 tick goes through: nothing to catch up after it.
      await fireTick(orm.em.fork(), up, ticking.schedule, at('11:00:00.250'));
      expect(await catchUpTicks(orm.em.fork(), up, [ticking], at('11:30:00'), log)).toEqual([]);
      expect(await queued(up)).toEqual([tickJobId(name, at('10:00:00')), tickJobId(name, at('11:00:00'))]);
    });
  });
});
