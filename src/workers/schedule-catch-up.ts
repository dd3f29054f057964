import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { QueueProducer } from '../jobs/producer.ts';
import type { ScheduleDefinition } from '../jobs/schedules.ts';
import { enqueueTick, minuteOf } from './scheduler-ticks.ts';

const MINUTE_MS = 60_000;
/** How far back a catch-up looks for the schedule's latest fire time. */
const MAX_LOOKBACK_MS = 35 * 24 * 3600_000;

/** A schedule and its cron expression's matcher (node-cron's `task.match`). */
export type Ticking = { schedule: ScheduleDefinition; match(date: Date): boolean };

/** The latest minute in (`after`, `now`] at which the schedule fires, if any. */
export function latestFire(match: (date: Date) => boolean, after: Date, now: Date): Date | null {
  const stop = Math.max(minuteOf(after).getTime(), minuteOf(now).getTime() - MAX_LOOKBACK_MS);
  for (let t = minuteOf(now).getTime(); t > stop; t -= MINUTE_MS) {
    if (match(new Date(t))) return new Date(t);
  }
  return null;
}

/** Enqueues one tick and records it as the schedule's last: a tick that did not reach Redis is not recorded. */
export async function fireTick(em: EntityManager, producer: QueueProducer, schedule: ScheduleDefinition, tick: Date): Promise<string> {
  const id = await enqueueTick(producer, schedule, tick);
  await em.execute(
    `insert into schedule_ticks (schedule, last_tick_at, updated_at) values (?, ?, now())
     on conflict (schedule) do update set last_tick_at = greatest(schedule_ticks.last_tick_at, excluded.last_tick_at), updated_at = now()`,
    [schedule.name, minuteOf(tick)],
  );
  return id;
}

/**
 * Makes up ticks missed while Redis was unreachable: when a schedule's latest fire time is
 * after its last recorded tick, that one tick is enqueued — once, however many periods
 * were missed (a purge or refresh does all its work in one run). Its job id is the one the
 * cron tick would have had, so schedulers catching up at once, or a tick firing meanwhile,
 * enqueue it once. A schedule seen for the first time starts from now: nothing is owed.
 */
export async function catchUpTicks(em: EntityManager, producer: QueueProducer, list: readonly Ticking[], now: Date, log: Logger): Promise<string[]> {
  if (list.length === 0) return [];
  const names = list.map((t) => t.schedule.name);
  await em.execute(
    `insert into schedule_ticks (schedule, last_tick_at, updated_at) values ${names.map(() => '(?, ?, now())').join(', ')} on conflict (schedule) do nothing`,
    names.flatMap((name) => [name, minuteOf(now)]),
  );
  const rows = await em.execute<Array<{ schedule: string; last_tick_at: Date | string }>>(
    `select schedule, last_tick_at from schedule_ticks where schedule in (${names.map(() => '?').join(', ')})`,
    names,
  );
  const last = new Map(rows.map((r) => [r.schedule, new Date(r.last_tick_at)]));
  const enqueued: string[] = [];
  for (const { schedule, match } of list) {
    const missed = latestFire(match, last.get(schedule.name) ?? now, now);
    if (!missed) continue;
    const id = await fireTick(em, producer, schedule, missed);
    log.warn({ schedule: schedule.name, tick: missed.toISOString(), id }, 'missed schedule tick enqueued (catch-up)');
    enqueued.push(id);
  }
  return enqueued;
}
