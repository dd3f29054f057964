import type { EntityManager } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Clock } from '../domain/shared/clock.ts';
import type { JobDefinition } from '../jobs/define-job.ts';
import type { QueueProducer } from '../jobs/producer.ts';

export type SweepOptions = { graceMs: number; batchSize: number };

/** Every state in which BullMQ still holds a job that will run (or is running). */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

export class StrandedRecordError extends Error {
  override name = 'StrandedRecordError';
}

/**
 * Ends records that wait for a job that no longer exists — an import run left `in-progress`
 * by a hook that never ran (the worker died right after the job failed, the database was
 * down), a job enqueued before the outbox kept its rows and then lost with its Redis. For
 * each job that declares `unfinished` records, those older than the grace are checked
 * against the outbox first and the queue second: a job is recorded in the outbox in the
 * transaction that made the record and leaves it only once it has finished (a job Redis
 * lost is enqueued again from it by the reconciler), so in that order a job on its way is
 * always seen in one of the two. What is in neither is ended through the job's own
 * final-failure hook. Any number of workers may sweep at once: hooks leave final records
 * alone.
 */
export async function sweepStranded(
  em: EntityManager,
  producer: QueueProducer,
  jobs: readonly JobDefinition[],
  clock: Clock,
  log: Logger,
  opts: SweepOptions,
): Promise<number> {
  const before = new Date(clock.now().getTime() - opts.graceMs);
  let ended = 0;
  for (const def of jobs) {
    if (!def.unfinished || !def.onFinalFailure) continue;
    const candidates = (await def.unfinished(em.fork(), { before, limit: opts.batchSize })) as Array<Record<string, unknown>>;
    if (candidates.length === 0) continue;
    const inOutbox = await outboxPayloads(em, def.name, candidates);
    const notInOutbox = candidates.filter((c) => !inOutbox.some((p) => holds(p, c)));
    if (notInOutbox.length === 0) continue;
    const queued = await liveJobData(producer.queue(def.queue), def.name);
    for (const payload of notInOutbox.filter((c) => !queued.some((d) => holds(d, c)))) {
      const error = new StrandedRecordError('Processing stopped without an outcome: its job is no longer queued. Start it again.');
      log.warn({ job: def.name, payload }, 'ending a record whose job is gone');
      await def.onFinalFailure(payload, error, { em: em.fork(), log, clock });
      ended++;
    }
  }
  return ended;
}

/** Outbox rows of this job whose payload holds one of the candidates (jobs not yet finished, or parked). */
async function outboxPayloads(em: EntityManager, name: string, candidates: Array<Record<string, unknown>>) {
  const rows = await em.fork().execute<Array<{ payload: Record<string, unknown> }>>(
    `select payload from job_outbox where name = ? and payload @> any(array[${candidates.map(() => '?::jsonb').join(', ')}])`,
    [name, ...candidates.map((c) => JSON.stringify(c))],
  );
  return rows.map((r) => r.payload);
}

async function liveJobData(queue: Queue, name: string): Promise<Array<Record<string, unknown>>> {
  const jobs = await queue.getJobs([...LIVE_STATES]);
  return jobs.filter((j) => j.name === name).map((j) => j.data as Record<string, unknown>);
}

/** Whether `data` carries every field of `payload` with the same value. */
function holds(data: Record<string, unknown>, payload: Record<string, unknown>): boolean {
  return Object.entries(payload).every(([k, v]) => JSON.stringify(data?.[k]) === JSON.stringify(v));
}
