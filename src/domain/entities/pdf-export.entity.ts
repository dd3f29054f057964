import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';

export type PdfExportStatus = 'pending' | 'ready' | 'failed';

/**
 * The cache of PDF exports: one row per (revision, scope), where scope is `all`,
 * `page:<pageId>` (that page and its descendants) or `only:<pageId>`. Revisions never
 * change, so a ready row answers every later request for the same content. `runId` names
 * the job run that owns a pending row: a job of an earlier run ends quietly.
 *
 * Space and revision are not foreign keys: when a space is purged its rows are swept with
 * the rest of its content and their blobs tombstoned (collect-garbage.ts), which a cascade
 * would skip.
 */
export const PdfExportSchema = defineEntity({
  name: 'PdfExport',
  tableName: 'pdf_exports',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    spaceId: p.string().length(20),
    revisionId: p.string().length(20),
    scope: p.string().length(40),
    status: p.string().length(16).$type<PdfExportStatus>().default('pending'),
    runId: p.string().length(20),
    /** Renders started for the current run (a killed worker's retry counts again). */
    attempts: p.integer().default(0),
    blobKey: p.string().length(64).nullable(),
    size: p.bigint('number').nullable(),
    /** Content pages in the PDF. */
    pages: p.integer().nullable(),
    errorCode: p.string().length(32).nullable(),
    errorMessage: p.string().length(2000).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['revisionId', 'scope'] }],
  indexes: [{ properties: ['status', 'createdAt'] }, { properties: ['blobKey'] }],
});

export class PdfExport extends PdfExportSchema.class {}
PdfExportSchema.setClass(PdfExport);
