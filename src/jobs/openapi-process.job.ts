import { z } from 'zod';
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
});
