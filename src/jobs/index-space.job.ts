import { z } from 'zod';
import { indexSpace } from '../domain/search/index-space.ts';
import { defineJob } from './define-job.ts';

/** Keeps a space's search sections in line with its current content (incremental, idempotent). */
export const indexSpaceJob = defineJob({
  name: 'search.index-space',
  queue: 'search',
  payload: z.object({ spaceId: z.string().min(1).max(20) }),
  retry: { attempts: 8, backoff: { type: 'exponential', delay: 2000 } },
  async handle({ spaceId }, ctx) {
    const result = await indexSpace(ctx.em, spaceId);
    ctx.log.debug({ spaceId, ...result }, 'search index updated');
    return result;
  },
});
