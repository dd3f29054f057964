import { z } from 'zod';
import { collectGarbage } from '../domain/content/collect-garbage.ts';
import { purgeDeletedSpaces } from '../domain/content/purge.ts';
import { defineJob } from './define-job.ts';

export const DAY_MS = 24 * 3600 * 1000;
/** Content younger than this is never swept: a long write (an import) may be about to name it. */
const CONTENT_GRACE_MS = 3600 * 1000;
const BATCH_SIZE = 100;

/**
 * Empties the bin: spaces deleted longer ago than the retention window. The window
 * travels in the payload so the schedule's configuration decides it, not the worker's.
 */
export const purgeSpacesJob = defineJob({
  name: 'spaces.purge-deleted',
  queue: 'maintenance',
  payload: z.object({ retentionMs: z.number().int().min(0) }),
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 } },
  async handle({ retentionMs }, ctx) {
    const result = await purgeDeletedSpaces(ctx.em, ctx.clock, {
      retentionMs,
      batchSize: BATCH_SIZE,
      onBatch: (purged) => ctx.reportProgress({ purged }),
    });
    // Content is shared by hash: what only the purged spaces used is found by reachability.
    const collected = await collectGarbage(ctx.em, ctx.services.blobs, ctx.clock.now(), CONTENT_GRACE_MS, { sweep: result.purged > 0 });
    if (result.purged) ctx.log.info({ ...result, collected }, 'purged deleted spaces');
    return { ...result, collected };
  },
});
