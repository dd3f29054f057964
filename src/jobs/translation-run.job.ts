import { z } from 'zod';
import { TranslationRun } from '../domain/entities/translation-run.entity.ts';
import { failRun, isPermanentRunError } from '../domain/translations/fail-run.ts';
import { pseudoProvider } from '../domain/translations/provider.ts';
import type { ScheduleRun } from '../domain/translations/request-run.ts';
import { executeRun } from '../domain/translations/run-translation.ts';
import { contentChangeRecorder } from './content-changed.ts';
import { defineJob, type JobDefinition } from './define-job.ts';
import { recordJob, type JobOutbox } from './outbox.ts';

const Payload = z.object({ translationId: z.string().min(1).max(20), runId: z.string().min(1).max(20) });

/**
 * Executes one run of a translation (run-translation.ts). The payload names the run, so a
 * job whose run is not the translation's live one ends quietly: with the one-live index,
 * two runs of a translation never execute at once. Retries resume from the page
 * checkpoints, so they cost only the pages not yet translated. A provider error no retry
 * can mend (bad key, quota, language) fails the run at once; any other failure retries and,
 * on the last attempt, fails the run through the final-failure hook.
 */
export const translationRunJob: JobDefinition<typeof Payload> = defineJob({
  name: 'translations.run',
  queue: 'translations',
  payload: Payload,
  retry: { attempts: 4, backoff: { type: 'exponential', delay: 10_000 } },
  async handle({ translationId, runId }, ctx) {
    const provider = ctx.services.translation ?? pseudoProvider;
    const schedule = scheduleWith(ctx.outbox);
    try {
      const outcome = await executeRun(ctx.em, translationId, runId, {
        provider,
        now: () => ctx.clock.now(),
        onChange: contentChangeRecorder(ctx.outbox),
        schedule,
        finishIn: ctx.finishIn,
        signal: ctx.signal,
        onPage: async (done, total) => {
          if (done % 25 === 0 || done === total) await ctx.reportProgress({ pages: done, of: total });
        },
      });
      ctx.log.info({ translationId, runId, provider: provider.name, ...outcome }, 'translation run ended');
      return outcome;
    } catch (err) {
      if (!isPermanentRunError(err)) throw err;
      await failRun(ctx.em, { translationId, runId }, err, { now: ctx.clock.now(), schedule, finishIn: ctx.finishIn });
      ctx.log.warn({ translationId, runId, code: err.code, err: err.message }, 'translation run failed');
      return { failed: err.code };
    }
  },
  async onFinalFailure({ translationId, runId }, error, ctx) {
    // No outbox here: a follow-up's job is recorded for the relay to enqueue.
    await failRun(ctx.em, { translationId, runId }, error, { now: ctx.clock.now(), schedule: (tx, next) => recordJob(tx, translationRunJob, next) });
  },
  async unfinished(em, { before, limit }) {
    const open = await em.find(
      TranslationRun,
      { status: { $in: ['queued', 'running'] }, createdAt: { $lt: before } },
      { fields: ['id', 'translation'], orderBy: { createdAt: 'asc' }, limit },
    );
    return open.map((run) => ({ translationId: run.translation.id, runId: run.id }));
  },
});

/** Records the job of a queued run in the transaction that queued it. */
export function scheduleWith(outbox: JobOutbox): ScheduleRun {
  return (tx, run) => outbox.add(tx, translationRunJob, run);
}
