import { z } from 'zod';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { reclusterOrganization } from '../../src/domain/conversations/recluster.ts';
import { reclusterJob } from '../../src/jobs/recluster.job.ts';
import { ImportRun } from '../../src/domain/entities/import-run.entity.ts';
import { extractIssuesJob } from '../../src/jobs/extract-issues.job.ts';
import { defineJob } from '../../src/jobs/define-job.ts';
import { markFailed } from '../../src/jobs/website-import.job.ts';
import { marks } from './test-jobs.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An import-like job with a real record: it marks an import run in progress, counts its
 * runs, takes a minute on its first `longRuns` runs (a worker can be killed meanwhile; it
 * notes its abort signal but does not stop, as a handler stuck in a call would not), then
 * completes the run.
 * Its final-failure hook is the website import's and counts its own calls.
 */
function longImport(attempts: number) {
  return defineJob({
    name: `test.long-import-${attempts}`,
    queue: 'maintenance',
    payload: z.object({ runId: z.string(), key: z.string(), longRuns: z.number().int().min(0) }),
    retry: { attempts, backoff: { type: 'fixed', delay: 100 } },
    async handle({ runId, key, longRuns }, ctx) {
      await ctx.em.nativeUpdate(ImportRun, { id: runId, status: 'pending' }, { status: 'in-progress', startedAt: new Date() });
      const run = await marks().incr(`${key}:runs`);
      ctx.signal?.addEventListener('abort', () => void marks().set(`${key}:aborted`, String(run)));
      if (run <= longRuns) await sleep(60_000);
      await ctx.em.nativeUpdate(ImportRun, { id: runId, status: 'in-progress' }, { status: 'completed', completedAt: new Date() });
    },
    async onFinalFailure({ runId, key }, error, ctx) {
      await marks().incr(`${key}:hooks`);
      await markFailed(ctx.em, runId, error.message, ctx.clock.now());
    },
  });
}

export const longImport3 = longImport(3);
export const longImport4 = longImport(4);

/** Fails every attempt; its hook counts its calls. */
export const alwaysFailsJob = defineJob({
  name: 'test.always-fails',
  queue: 'maintenance',
  payload: z.object({ key: z.string() }),
  retry: { attempts: 3, backoff: { type: 'fixed', delay: 50 } },
  async handle({ key }) {
    await marks().incr(`${key}:runs`);
    throw new Error('this job always fails');
  },
  async onFinalFailure({ key }) {
    await marks().incr(`${key}:hooks`);
  },
});

/**
 * The real issue extraction under its real name and queue, made slow: after each committed
 * batch it counts the batch (`vellum-test:extract:<organization>:batches`) and pauses, so a
 * test can kill its worker part-way through an organization's conversations.
 */
export const slowExtractIssuesJob = defineJob({
  ...extractIssuesJob,
  async handle({ organizationId }, ctx) {
    return extractPendingIssues(ctx.em, organizationId, {
      now: () => ctx.clock.now(),
      afterBatch: async () => {
        await marks().incr(`vellum-test:extract:${organizationId}:batches`);
        await sleep(300);
      },
    });
  },
});

/**
 * The real re-clustering under its real name and queue, stopped half-way on its first run:
 * once its cluster rows are written (inside its transaction) it counts the run
 * (`vellum-test:recluster:<organization>:runs`) and, the first time, waits a minute, so a
 * test can kill its worker mid-write. Later runs go straight through.
 */
export const slowReclusterJob = defineJob({
  ...reclusterJob,
  async handle({ organizationId }, ctx) {
    return reclusterOrganization(ctx.em, organizationId, {
      now: () => ctx.clock.now(),
      finishIn: ctx.finishIn,
      afterClusterRows: async () => {
        const run = await marks().incr(`vellum-test:recluster:${organizationId}:runs`);
        if (run === 1) await sleep(60_000);
      },
    });
  },
});

export const longJobs = [longImport3, longImport4, alwaysFailsJob, slowExtractIssuesJob, slowReclusterJob];
