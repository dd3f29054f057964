import { z } from 'zod';
import { PdfExport } from '../domain/entities/pdf-export.entity.ts';
import type { ScheduleExport } from '../domain/exports/pdf-exports.ts';
import { failExport, runExport } from '../domain/exports/run-export.ts';
import { defineJob, type JobDefinition } from './define-job.ts';
import type { JobOutbox } from './outbox.ts';

const Payload = z.object({ exportId: z.string().min(1).max(20), runId: z.string().min(1).max(20) });

/**
 * Renders one PDF export (run-export.ts) and stores it in the blob store. The payload names
 * the run, so a job of an earlier run, or one that runs again after the export is ready,
 * does nothing. A killed worker's job runs again from the start (renders are short and
 * give the same bytes); when every attempt failed, the final-failure hook records it on the
 * row, so callers get the error instead of waiting, and a later ask starts a new run.
 */
export const pdfExportJob: JobDefinition<typeof Payload> = defineJob({
  name: 'exports.pdf',
  queue: 'exports',
  payload: Payload,
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } },
  async handle(run, ctx) {
    const result = await runExport(ctx.em, ctx.services.blobs, run, { finishIn: ctx.finishIn, signal: ctx.signal });
    ctx.log.info({ ...run, ...result }, 'pdf export ended');
    return result;
  },
  async onFinalFailure(run, error, ctx) {
    // The cause goes to the log; the row (which callers read) gets a message that reveals nothing.
    ctx.log.error({ ...run, err: error.message }, 'pdf export failed for good');
    await failExport(ctx.em, run, 'RENDER_FAILED', 'The PDF could not be rendered; asking again starts a new attempt');
  },
  async unfinished(em, { before, limit }) {
    const open = await em.find(PdfExport, { status: 'pending', createdAt: { $lt: before } }, { fields: ['id', 'runId'], orderBy: { createdAt: 'asc' }, limit });
    return open.map((row) => ({ exportId: row.id, runId: row.runId }));
  },
});

/** Records the job of a new export run in the transaction that made the run. */
export function scheduleExportWith(outbox: JobOutbox): ScheduleExport {
  return (tx, run) => outbox.add(tx, pdfExportJob, run);
}
