import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { QueueProducer } from '../jobs/producer.ts';
import type { ScheduleDefinition } from '../jobs/schedules.ts';

/**
 * The job id of one tick: the schedule's name and the tick's minute. Every scheduler
 * process computes the same id for the same tick, so the queue keeps only one.
 * BullMQ custom ids must not contain `:`.
 */
export function tickJobId(schedule: string, tick: Date): string {
  const minute = new Date(Math.floor(tick.getTime() / 60_000) * 60_000);
  return `tick-${schedule}-${minute.toISOString().replace(/[:.]/g, '')}`;
}

export async function enqueueTick(producer: QueueProducer, schedule: ScheduleDefinition, tick: Date): Promise<string> {
  const id = tickJobId(schedule.name, tick);
  const payload = schedule.job.payload.parse(schedule.payload(tick)) as Record<string, unknown>;
  await producer.enqueue({ id, queue: schedule.job.queue, name: schedule.job.name, payload, delayMs: 0 });
  return id;
}

export type RunningScheduler = { close(): Promise<void> };

/** Enqueues each schedule's ticks; nothing else runs here. */
export function startScheduler(producer: QueueProducer, list: ScheduleDefinition[], log: Logger): RunningScheduler {
  const tasks: ScheduledTask[] = list.map((schedule) =>
    cron.schedule(
      schedule.cron,
      async (ctx) => {
        try {
          const id = await enqueueTick(producer, schedule, ctx.date);
          log.info({ schedule: schedule.name, id }, 'schedule tick enqueued');
        } catch (err) {
          log.error({ schedule: schedule.name, err: (err as Error).message }, 'schedule tick could not be enqueued');
        }
      },
      { name: schedule.name },
    ),
  );
  log.info({ schedules: list.map((s) => `${s.name} (${s.cron})`) }, 'scheduler started');
  return {
    async close() {
      await Promise.all(tasks.map((t) => t.stop()));
    },
  };
}
