import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadTree } from '../content/revision-reader.ts';
import { Revision } from '../entities/revision.entity.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { EXPORT_LIMITS, type ExportLimits } from './export-limits.ts';
import { exportPages } from './export-pages.ts';
import { parseScope, selectPages } from './export-scope.ts';
import type { ExportRun } from './pdf-exports.ts';
import { ExportTooLargeError, renderPdf } from './render-pdf.ts';

export type RunExportOptions = {
  limits?: ExportLimits;
  /** Completes the job in the transaction that marks the export ready (the worker's outbox record). */
  finishIn?: (tx: EntityManager) => Promise<void>;
  signal?: AbortSignal;
};

export type RunOutcome = { outcome: 'ready'; pages: number; bytes: number } | { outcome: 'skipped' } | { outcome: 'failed'; code: string };

/**
 * Renders a pending export and stores the PDF. Only the run the row names does anything:
 * an export already ready, failed, handed to another run, or gone is left alone, so a job
 * that runs again does nothing. A retry after a killed worker renders again from the start;
 * the bytes are the same (content and creation date are the revision's), so the blob it
 * stores is the one an interrupted attempt may already have written.
 */
export async function runExport(em: EntityManager, blobs: BlobStore, run: ExportRun, opts: RunExportOptions = {}): Promise<RunOutcome> {
  const limits = opts.limits ?? EXPORT_LIMITS;
  const [claimed] = await em.execute<Array<{ space_id: string; revision_id: string; scope: string }>>(
    `update pdf_exports set attempts = attempts + 1, started_at = now()
     where id = ? and run_id = ? and status = 'pending' returning space_id, revision_id, scope`,
    [run.exportId, run.runId],
  );
  if (!claimed) return { outcome: 'skipped' };
  const revision = await em.findOne(Revision, { id: claimed.revision_id });
  const [space] = await em.execute<Array<{ title: string }>>('select title from spaces where id = ?', [claimed.space_id]);
  if (!revision || !space) return fail(em, run, 'CONTENT_GONE', 'The content to export no longer exists');

  let pdf: Awaited<ReturnType<typeof renderPdf>>;
  try {
    const selected = selectPages(await loadTree(em, revision.pages), parseScope(claimed.scope));
    if (selected.length > limits.maxPages) throw new ExportTooLargeError(tooManyPages(selected.length, limits.maxPages));
    const pages = exportPages(em, blobs, revision, selected, limits, opts.signal);
    pdf = await renderPdf(pages, { title: space.title, created: revision.createdAt, maxBytes: limits.maxPdfBytes });
  } catch (err) {
    if (err instanceof ExportTooLargeError) return fail(em, run, 'TOO_LARGE', err.message);
    if (err instanceof NotFoundError) return fail(em, run, 'CONTENT_GONE', 'The page to export is not in this revision');
    throw err;
  }

  const key = createHash('sha256').update(pdf.bytes).digest('hex');
  await blobs.put(key, pdf.bytes, 'application/pdf');
  await em.transactional(async (tx) => {
    await tx.execute(
      `update pdf_exports set status = 'ready', blob_key = ?, size = ?, pages = ?, finished_at = now()
       where id = ? and run_id = ? and status = 'pending'`,
      [key, pdf.bytes.length, pdf.pages, run.exportId, run.runId],
    );
    await opts.finishIn?.(tx);
  });
  return { outcome: 'ready', pages: pdf.pages, bytes: pdf.bytes.length };
}

export function tooManyPages(count: number, max: number): string {
  return `The content has ${count} pages, more than the ${max} one PDF may hold: export a part of it (page, only)`;
}

/**
 * Records that the run failed, unless the export already ended or belongs to another run
 * (the final-failure hook may run again after a crash).
 */
export async function failExport(em: EntityManager, run: ExportRun, code: string, message: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update pdf_exports set status = 'failed', error_code = ?, error_message = ?, finished_at = now()
     where id = ? and run_id = ? and status = 'pending' returning id`,
    [code, message.slice(0, 2000), run.exportId, run.runId],
  );
  return rows.length > 0;
}

async function fail(em: EntityManager, run: ExportRun, code: string, message: string): Promise<RunOutcome> {
  await failExport(em, run, code, message);
  return { outcome: 'failed', code };
}

/** Marks a ready export whose blob the store no longer has as failed, so the next ask renders it anew. */
export async function failExportBlob(em: EntityManager, exportId: string): Promise<void> {
  await em.execute(
    `update pdf_exports set status = 'failed', error_code = 'BLOB_MISSING', error_message = 'The PDF is no longer stored: ask for the export again', finished_at = now()
     where id = ? and status = 'ready'`,
    [exportId],
  );
}
