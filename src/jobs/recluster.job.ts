import { z } from 'zod';
import { reclusterOrganization } from '../domain/conversations/recluster.ts';
import { endFailedRecluster, unfinishedReclusters } from '../domain/conversations/recluster-triggers.ts';
import { Organization } from '../domain/entities/organization.entity.ts';
import { defineJob } from './define-job.ts';

/**
 * Full re-clustering of one organization's issues (recluster.ts): recorded when enough new
 * issues arrived (by extraction batches), for each organization with new issues at every
 * CLUSTER_SCHEDULE tick, and on demand (`bin/vellum conversations recluster`). Runs of the
 * same organization wait for each other on its run lock; everything a run writes commits
 * together, so a retry starts from the previous clustering. A run that fails for good
 * leaves that clustering in place and its clusters `ready` again.
 */
export const reclusterJob = defineJob({
  name: 'conversations.recluster',
  queue: 'conversations',
  payload: z.object({ organizationId: z.string().min(1).max(20) }),
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 } },
  async handle({ organizationId }, ctx) {
    // The organization was deleted since: nothing left to cluster (its clusters went with it).
    if (!(await ctx.em.count(Organization, { id: organizationId }))) return { skipped: 'organization gone' };
    const result = await reclusterOrganization(ctx.em, organizationId, {
      now: () => ctx.clock.now(),
      finishIn: ctx.finishIn,
      // EMBEDDINGS_URL / LLM_URL configured: vectors and labels by the models, offline methods on their failures.
      ai: ctx.services.ai,
      log: ctx.log,
    });
    ctx.log.info({ organizationId, ...result }, 'conversation issues re-clustered');
    return result;
  },
  async onFinalFailure({ organizationId }, _error, ctx) {
    await endFailedRecluster(ctx.em, organizationId);
  },
  async unfinished(em, { before, limit }) {
    return (await unfinishedReclusters(em, before, limit)).map((organizationId) => ({ organizationId }));
  },
});
