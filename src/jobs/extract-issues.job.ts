import { z } from 'zod';
import { extractPendingIssues } from '../domain/conversations/process-conversations.ts';
import { defineJob } from './define-job.ts';
import { reclusterJob } from './recluster.job.ts';

/**
 * Extracts issues from the organization's conversations that wait for it. One job per
 * ingest request, carrying only the organization: whichever run comes first does the
 * work of all pending conversations (batch by batch, sharing it with concurrent runs),
 * later ones find nothing left and end at once. Each batch places its new issues in
 * their nearest clusters and, when they make a full re-clustering due, records that job. Nothing is recorded as `running`, so no
 * final-failure hook is needed: a conversation whose job failed for good stays unprocessed
 * and the next ingest of the organization picks it up.
 */
export const extractIssuesJob = defineJob({
  name: 'conversations.extract-issues',
  queue: 'conversations',
  payload: z.object({ organizationId: z.string().min(1).max(20) }),
  retry: { attempts: 8, backoff: { type: 'exponential', delay: 2000 } },
  async handle({ organizationId }, ctx) {
    const result = await extractPendingIssues(ctx.em, organizationId, {
      now: () => ctx.clock.now(),
      signal: ctx.signal,
      // A batch that makes a re-clustering due records it with its issues; sent once that batch committed.
      reclusterDue: (tx) => ctx.outbox.add(tx, reclusterJob, { organizationId }),
      afterBatch: async (conversations) => {
        if (ctx.outbox.size) await ctx.outbox.publish(ctx.em);
        await ctx.reportProgress({ conversations });
      },
      // LLM_URL configured: titles and summaries by the model, offline heuristics on its failures.
      ...(ctx.services.ai?.issueExtractor ? { extract: ctx.services.ai.issueExtractor, batchSize: ctx.services.ai.extractBatch } : {}),
      // EMBEDDINGS_URL configured: new and changed issues are embedded in their batch.
      ai: ctx.services.ai,
    });
    if (result.conversations) ctx.log.info({ organizationId, ...result }, 'conversation issues extracted');
    return result;
  },
});
