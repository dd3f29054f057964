import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Clock } from '../domain/shared/clock.ts';
import type { Orm } from '../domain/orm.ts';
import type { JobDefinition } from '../jobs/define-job.ts';
import { finishRow } from '../jobs/outbox-store.ts';

/**
 * Whether BullMQ has just failed `job` for good rather than scheduling a retry. Called from
 * the `failed` event, after `moveToFailed` counted the attempt: an UnrecoverableError
 * (thrown by a handler, or BullMQ's own for a job that stalled past its limit) or no
 * attempts left.
 */
export function failedForGood(job: Job, err: Error): boolean {
  return err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}

/**
 * Runs the final-failure hook of every job that fails for good, by any route. It listens to
 * the worker's `failed` event rather than catching inside the processor, because a job
 * that stalled out is failed by BullMQ without the processor ever running. The event fires
 * once per failure in the process that recorded it; a hook lost to a crash or an outage is
 * made up by the stranded-record sweep, which is why hooks are idempotent.
 */
export class FinalFailures {
  private readonly pending = new Set<Promise<void>>();
  private readonly byName: Map<string, JobDefinition>;
  private readonly orm: Orm;
  private readonly log: Logger;
  private readonly clock: Clock;

  constructor(byName: Map<string, JobDefinition>, orm: Orm, log: Logger, clock: Clock) {
    this.byName = byName;
    this.orm = orm;
    this.log = log;
    this.clock = clock;
  }

  /** The worker's `failed` listener. */
  readonly onFailed = (job: Job | undefined, err: Error) => {
    if (!job) return; // removed meanwhile: its record is left to the sweep
    if (!failedForGood(job, err)) {
      this.log.warn({ job: job.name, jobId: job.id, attempts: job.attemptsMade, err: err.message }, 'job attempt failed; it will be retried');
      return;
    }
    const running = this.runHook(job, err).finally(() => this.pending.delete(running));
    this.pending.add(running);
  };

  /** Waits for hooks still running, so a stopping worker closes the ORM after them. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async runHook(job: Job, err: Error) {
    const log = this.log.child({ job: job.name, jobId: job.id, attempts: job.attemptsMade });
    log.warn({ err: err.message }, 'job failed for good');
    try {
      await this.hook(job, err, log);
    } finally {
      // Finished for good: the outbox row goes. Should the hook have failed, the record is
      // now in neither the outbox nor the queue, which is what the stranded sweep ends.
      await finishRow(this.orm.em.fork(), job.id).catch((e) => log.warn({ err: (e as Error).message }, 'outbox row not removed; the reconciler will'));
    }
  }

  private async hook(job: Job, err: Error, log: Logger) {
    const def = this.byName.get(job.name);
    if (!def?.onFinalFailure) return;
    const parsed = def.payload.safeParse(job.data);
    if (!parsed.success) return log.error('final-failure hook skipped: the payload does not parse');
    try {
      await def.onFinalFailure(parsed.data, err, { em: this.orm.em.fork(), log, clock: this.clock });
    } catch (hookErr) {
      log.error({ err: (hookErr as Error).message }, 'final-failure hook failed; the stranded-record sweep will end the record');
    }
  }
}
