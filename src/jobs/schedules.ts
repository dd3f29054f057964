import type { z } from 'zod';
import type { Config } from '../../config/env.ts';
import type { JobDefinition } from './define-job.ts';
import { DAY_MS, purgeSpacesJob } from './purge-spaces.job.ts';
import { openapiRefreshJob } from './openapi-refresh.job.ts';
import { reclusterDueJob } from './recluster-due.job.ts';

export type ScheduleDefinition<S extends z.ZodType = z.ZodType> = {
  /** Stable name: part of every tick's job id. */
  name: string;
  /** Cron expression (node-cron syntax), possibly overridden from the environment. */
  cron: string;
  job: JobDefinition<S>;
  payload(tick: Date): z.input<S>;
};

export function defineSchedule<S extends z.ZodType>(def: ScheduleDefinition<S>): ScheduleDefinition<S> {
  return def;
}

/** Recurring work, declared in one table; cron expressions come from configuration. Schedules only enqueue. */
export function schedules(config: Config): ScheduleDefinition[] {
  return [
    defineSchedule({
      name: 'purge-deleted-spaces',
      cron: config.purgeSchedule,
      job: purgeSpacesJob,
      payload: () => ({ retentionMs: config.spaceRetentionDays * DAY_MS }),
    }),
    defineSchedule({ name: 'openapi-refresh', cron: config.openapiRefreshSchedule, job: openapiRefreshJob, payload: () => ({}) }),
    defineSchedule({ name: 'conversations-recluster', cron: config.clusterSchedule, job: reclusterDueJob, payload: () => ({}) }),
  ] as ScheduleDefinition[];
}
