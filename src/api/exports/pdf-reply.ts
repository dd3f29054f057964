import type { EntityManager } from '@mikro-orm/postgresql';
import { loadRevision, loadTree } from '../../domain/content/revision-reader.ts';
import type { Space } from '../../domain/entities/space.entity.ts';
import { exportFailure } from '../../domain/exports/export-errors.ts';
import { EXPORT_LIMITS } from '../../domain/exports/export-limits.ts';
import { selectPages, type ExportScope } from '../../domain/exports/export-scope.ts';
import { awaitExport, PERMANENT_FAILURES, requestExport } from '../../domain/exports/pdf-exports.ts';
import { tooManyPages } from '../../domain/exports/run-export.ts';
import { BadRequestError } from '../../domain/shared/errors.ts';
import { scheduleExportWith } from '../../jobs/pdf-export.job.ts';
import type { JobOutbox } from '../../jobs/outbox.ts';
import type { ApiDeps } from '../context.ts';
import type { Reply } from '../http/route.ts';

export const PDF_TYPE = 'application/pdf';

/** What the signature of an export's download link covers as its key (never a blob key: those are hex). */
export const exportLinkKey = (exportId: string) => `pdf-export:${exportId}`;

type Asked = { em: EntityManager; outbox: JobOutbox; deps: ApiDeps };

/**
 * The answer to "this revision (or part of it) as PDF": finds or records the export in the
 * route's transaction (its job goes through the outbox), then, after the commit, waits up to
 * PDF_WAIT_MS for the render and answers the signed link — at once when the PDF is cached.
 * A render still running by then answers the link all the same (it serves the PDF once
 * ready); one that failed answers its error.
 */
export async function pdfReply({ em, outbox, deps }: Asked, space: Space, revisionId: string, scope: ExportScope, title: string): Promise<Reply> {
  const revision = await loadRevision(em, space, revisionId);
  // An unknown page is a 404 and an oversized space a 400 now, before anything is recorded.
  const selected = selectPages(await loadTree(em, revision.pages), scope);
  if (selected.length > EXPORT_LIMITS.maxPages) throw new BadRequestError(tooManyPages(selected.length, EXPORT_LIMITS.maxPages));
  const asked = await requestExport(em, { spaceId: space.id, revisionId: revision.id, scope }, scheduleExportWith(outbox));
  if (asked.status === 'failed' && PERMANENT_FAILURES.has(asked.errorCode ?? '')) throw exportFailure(asked);
  const name = fileName(scope.pageId ? (selected[0]?.page.node.title ?? title) : title);
  return {
    status: 200,
    async afterCommit() {
      const state = asked.status === 'pending' ? await awaitExport(deps.orm.em.fork(), asked.id, deps.config.pdfWaitMs) : asked;
      if (state?.status === 'failed') throw exportFailure(state);
      return { status: 200, body: { url: exportLink(deps, asked.id, name) } };
    },
  };
}

export function exportLink(deps: ApiDeps, exportId: string, name: string): string {
  const expires = Math.floor(deps.clock.now().getTime() / 1000) + deps.config.fileUrlTtlSeconds;
  const signature = deps.signer.sign({ key: exportLinkKey(exportId), name, contentType: PDF_TYPE, expires });
  return deps.urls.location(`/exports/${exportId}/pdf?${new URLSearchParams({ name, expires: String(expires), signature })}`);
}

/** A file name from a title: what a browser saves the PDF as. */
function fileName(title: string): string {
  // eslint-disable-next-line no-control-regex
  const base = title.replace(/[\u0000-\u001f\u007f/\\]/g, ' ').trim().slice(0, 200) || 'export';
  return `${base}.pdf`;
}
