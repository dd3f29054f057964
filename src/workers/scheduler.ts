import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Orm } from '../domain/orm.ts';
import type { QueueProducer } from '../jobs/producer.ts';
import type { ScheduleDefinition } from '../jobs/schedules.ts';
import { every } from './periodic.ts';
import { catchUpTicks, fireTick } from './schedule-catch-up.ts';
import { SCHEDULE_CATCH_UP_INTERVAL_MS } from './settings.ts';

export { enqueueTick, tickJobId } from './scheduler-ticks.ts';

export type RunningScheduler = { close(): Promise<void> };

/**
 * Enqueues each schedule's ticks, recording each one that reached its queue; nothing else
 * runs here. At start and then every half minute, a tick missed while Redis was
 * unreachable is made up (schedule-catch-up.ts).
 */
export function startScheduler(producer: QueueProducer, list: ScheduleDefinition[], log: Logger, orm: Orm): RunningScheduler {
  const tasks: ScheduledTask[] = list.map((schedule) =>
    cron.schedule(
      schedule.cron,
      async (ctx) => {
        try {
          const id = await fireTick(orm.em.fork(), producer, schedule, ctx.date);
          log.info({ schedule: schedule.name, id }, 'schedule tick enqueued');
        } catch (err) {
          log.error({ schedule: schedule.name, err: (err as Error).message }, 'schedule tick could not be enqueued; it will be caught up');
        }
      },
      { name: schedule.name },
    ),
  );
  const ticking = list.map((schedule, i) => ({ schedule, match: (date: Date) => tasks[i]!.match(date) }));
  const catchUp = () => catchUpTicks(orm.em.fork(), producer, ticking, new Date(), log).then(() => undefined);
  const first = catchUp().catch((err) => log.warn({ err: (err as Error).message }, 'schedule catch-up failed; will retry'));
  const catchingUp = every(SCHEDULE_CATCH_UP_INTERVAL_MS, catchUp, log, 'schedule catch-up');
  log.info({ schedules: list.map((s) => `${s.name} (${s.cron})`) }, 'scheduler started');
  return {
    async close() {
      await Promise.all([first, catchingUp.stop()]);
      await Promise.all(tasks.map((t) => t.stop()));
    },
  };
}
