import type { QueueProducer } from '../jobs/producer.ts';
import type { ScheduleDefinition } from '../jobs/schedules.ts';

/** Ticks are per minute: the finest a cron expression of ours names. */
export function minuteOf(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000);
}

/**
 * The job id of one tick: the schedule's name and the tick's minute. Every scheduler
 * process computes the same id for the same tick, so the queue keeps only one.
 * BullMQ custom ids must not contain `:`.
 */
export function tickJobId(schedule: string, tick: Date): string {
  return `tick-${schedule}-${minuteOf(tick).toISOString().replace(/[:.]/g, '')}`;
}

export async function enqueueTick(producer: QueueProducer, schedule: ScheduleDefinition, tick: Date): Promise<string> {
  const id = tickJobId(schedule.name, tick);
  const payload = schedule.job.payload.parse(schedule.payload(tick)) as Record<string, unknown>;
  await producer.enqueue({ id, queue: schedule.job.queue, name: schedule.job.name, payload, delayMs: 0 });
  return id;
}
