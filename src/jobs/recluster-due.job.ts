import { z } from 'zod';
import { claimDueOrganizations } from '../domain/conversations/recluster-triggers.ts';
import { defineJob } from './define-job.ts';
import { reclusterJob } from './recluster.job.ts';

const BATCH = 200;

/**
 * The CLUSTER_SCHEDULE tick: one re-clustering job per organization with issues new since
 * its last run and none requested, claimed and recorded through the outbox in batches.
 */
export const reclusterDueJob = defineJob({
  name: 'conversations.recluster-due',
  queue: 'conversations',
  payload: z.object({}),
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  async handle(_payload, ctx) {
    let queued = 0;
    for (;;) {
      const organizations = await ctx.em.transactional(async (tx) => {
        const due = await claimDueOrganizations(tx, ctx.clock.now(), BATCH);
        for (const organizationId of due) ctx.outbox.add(tx, reclusterJob, { organizationId });
        return due;
      });
      await ctx.outbox.publish(ctx.em);
      queued += organizations.length;
      if (organizations.length < BATCH) break;
    }
    if (queued) ctx.log.info({ queued }, 're-clustering requested for organizations with new issues');
    return { queued };
  },
});
