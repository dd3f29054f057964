import { z } from 'zod';
import { OpenApiSpec } from '../domain/entities/openapi-spec.entity.ts';
import { defineJob } from './define-job.ts';
import { openapiProcessJob } from './openapi-process.job.ts';

const BATCH = 500;

/**
 * The "check for updates" tick: one processing job per specification that has a URL,
 * recorded through the outbox in batches. Unchanged sources cost a conditional request.
 */
export const openapiRefreshJob = defineJob({
  name: 'openapi.refresh-all',
  queue: 'openapi',
  payload: z.object({}),
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  async handle(_payload, ctx) {
    let after = '';
    let queued = 0;
    for (;;) {
      const specs = await ctx.em.find(OpenApiSpec, { sourceUrl: { $ne: null }, id: { $gt: after } }, { fields: ['id'], orderBy: { id: 'asc' }, limit: BATCH });
      if (specs.length === 0) break;
      await ctx.em.transactional(async (tx) => {
        for (const spec of specs) ctx.outbox.add(tx, openapiProcessJob, { specId: spec.id });
      });
      await ctx.outbox.publish(ctx.em);
      queued += specs.length;
      after = specs.at(-1)!.id;
    }
    return { queued };
  },
});
