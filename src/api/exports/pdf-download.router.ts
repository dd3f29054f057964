import { Readable } from 'node:stream';
import { exportFailure } from '../../domain/exports/export-errors.ts';
import { awaitExport, readExport } from '../../domain/exports/pdf-exports.ts';
import { failExportBlob } from '../../domain/exports/run-export.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { downloadHeaders } from '../content/download-headers.ts';
import { defineRoute, type Reply } from '../http/route.ts';
import { exportLinkKey, PDF_TYPE } from './pdf-reply.ts';
import { PdfDownloadParams, PdfDownloadQuery } from './pdf.schema.ts';

/** Seconds a client is asked to wait before trying a PDF that is still rendering again. */
export const RENDERING_RETRY_AFTER = 2;

/**
 * Serves an exported PDF behind its signed link (no token: the signature is the permission).
 * A PDF still rendering is waited for up to PDF_WAIT_MS, then answered 503 with Retry-After
 * — an error status, so no client saves the answer as the PDF, and the one HTTP clients
 * retry by themselves (`curl --retry`). A failed render answers its error.
 */
export const pdfDownloadRoutes = [
  defineRoute({
    method: 'get',
    path: '/exports/{exportId}/pdf',
    operationId: 'downloadPdfExport',
    summary: 'Download an exported PDF through its signed link',
    tags: ['content'],
    auth: 'public',
    params: PdfDownloadParams,
    query: PdfDownloadQuery,
    responses: { 200: { description: 'The PDF' }, 503: { description: 'Still rendering: retry after `Retry-After` seconds' } },
    async handle({ params, query, deps, em }): Promise<Reply> {
      const link = { key: exportLinkKey(params.exportId), name: query.name, contentType: PDF_TYPE, expires: query.expires };
      // A bad or expired signature looks like a missing export: links reveal nothing.
      if (!deps.signer.verify(link, query.signature, deps.clock.now().getTime())) throw notFound('Export');
      let state = await readExport(em, params.exportId);
      if (state?.status === 'pending') state = await awaitExport(em, params.exportId, deps.config.pdfWaitMs);
      if (!state) throw notFound('Export');
      if (state.status === 'pending') {
        const message = `The PDF is still being rendered; retry in ${RENDERING_RETRY_AFTER} s`;
        return { status: 503, headers: { 'Retry-After': String(RENDERING_RETRY_AFTER) }, body: { error: { code: 503, message } } };
      }
      if (state.status === 'failed') throw exportFailure(state);
      const stream = await deps.blobs.get(state.blobKey!);
      if (!stream) {
        // The stored PDF is gone (a store wiped by hand): the next request for it renders it again.
        await failExportBlob(em, params.exportId);
        throw exportFailure({ errorCode: 'BLOB_MISSING', errorMessage: 'The PDF is no longer stored: ask for the export again' });
      }
      return {
        status: 200,
        body: stream instanceof Readable ? stream : Readable.from(stream),
        headers: { ...downloadHeaders(query.name, PDF_TYPE), 'Cache-Control': 'private, max-age=300' },
      };
    },
  }),
];
