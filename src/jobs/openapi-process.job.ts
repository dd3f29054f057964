import { z } from 'zod';
import { OpenApiSpec } from '../domain/entities/openapi-spec.entity.ts';
import { processSpec } from '../domain/openapi/process-spec.ts';
import { defineJob } from './define-job.ts';

/**
 * Processes one OpenAPI specification. Fetch and parse failures are outcomes recorded on
 * the spec (the last good version stays), not job failures; the job fails only when the
 * database or Redis does, and then retries.
 */
export const openapiProcessJob = defineJob({
  name: 'openapi.process',
  queue: 'openapi',
  payload: z.object({ specId: z.string().min(1).max(20) }),
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 5000 } },
  async handle({ specId }, ctx) {
    const outcome = await processSpec(ctx.em, ctx.services.http, specId, () => ctx.clock.now());
    ctx.log.info({ specId, outcome }, 'openapi spec processed');
    return { outcome };
  },
  /** Processing ends (the last good version keeps being served) with the reason it did not finish. */
  async onFinalFailure({ specId }, error, ctx) {
    await ctx.em.nativeUpdate(
      OpenApiSpec,
      { id: specId, processingState: { $in: ['pending', 'progress'] } },
      { processingState: 'complete', lastProcessedAt: ctx.clock.now(), lastProcessErrorCode: null, lastProcessedErrors: [{ message: `Processing did not finish: ${error.message}`.slice(0, 2000) }] },
    );
  },
  async unfinished(em, { before, limit }) {
    const open = await em.find(OpenApiSpec, { processingState: { $in: ['pending', 'progress'] }, updatedAt: { $lt: before } }, { fields: ['id'], orderBy: { updatedAt: 'asc' }, limit });
    return open.map((spec) => ({ specId: spec.id }));
  },
});
