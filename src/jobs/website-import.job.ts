import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { ChangeRequestClosedError, commitOnChangeRequest } from '../domain/change-requests/commit-change-request.ts';
import { commitOnCurrent, type RevisionInput } from '../domain/content/commit-revision.ts';
import { specsOf } from '../domain/content/current-pages.ts';
import type { PageSpec } from '../domain/content/page-tree.ts';
import { ChangeRequest } from '../domain/entities/change-request.entity.ts';
import { ImportRun } from '../domain/entities/import-run.entity.ts';
import type { Revision } from '../domain/entities/revision.entity.ts';
import { Space } from '../domain/entities/space.entity.ts';
import { crawlWebsite } from '../domain/imports/website-crawl.ts';
import { OutboundError } from '../domain/net/guarded-http.ts';
import { redactText } from '../domain/net/redact.ts';
import { newId } from '../domain/shared/ids.ts';
import { contentChangeRecorder } from './content-changed.ts';
import { defineJob } from './define-job.ts';

export const MAX_IMPORTED_PAGES = 100;
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Imports a website's pages into a space or one of its change requests (under a page, or
 * at the root) as one new revision. Crawling happens outside the transaction; the commit
 * re-checks, under a row lock, that the run was not cancelled or finished meanwhile, so a
 * retried or cancelled run never commits twice.
 */
export const websiteImportJob = defineJob({
  name: 'imports.website',
  queue: 'imports',
  payload: z.object({ runId: z.string().min(1).max(20) }),
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  async handle({ runId }, ctx) {
    const run = await ctx.em.findOne(ImportRun, { id: runId });
    if (!run || FINAL.has(run.status)) return { skipped: true };
    run.status = 'in-progress';
    run.startedAt ??= ctx.clock.now();
    await ctx.em.flush();

    let crawled;
    try {
      crawled = await crawlWebsite(ctx.services.http, run.sourceUrl, {
        maxPages: MAX_IMPORTED_PAGES,
        shouldStop: async () => (await ctx.em.fork().findOne(ImportRun, { id: runId }))?.status === 'cancelled',
      });
    } catch (err) {
      if (err instanceof OutboundError && (err.code === 'REFUSED' || err.code === 'BAD_URL')) throw new UnrecoverableError(err.message);
      throw err;
    }
    await ctx.reportProgress({ crawled: crawled.length });

    return ctx.em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(ImportRun, { id: runId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (FINAL.has(locked.status)) return { skipped: true };
      const space = await tx.findOne(Space, { id: locked.space.id });
      if (!space || space.deletedAt) throw new UnrecoverableError('The target space was deleted');
      // Ids fixed once, so a change rebuilt on a newer revision adds the same pages.
      const imported: PageSpec[] = crawled.map((p) => ({ id: newId(), kind: 'document', title: p.title || 'Untitled', markdown: p.markdown }));
      const addPages = async (em: EntityManager, head: Revision) => ({
        pages: placeUnder(await specsOf(em, head), imported, locked.parentPage ?? null),
        files: head.files,
        variables: head.variables,
      });
      if (locked.changeRequest) await commitIntoChangeRequest(tx, space, locked, addPages);
      else await commitOnCurrent(tx, space, addPages, contentChangeRecorder(ctx.outbox));
      locked.pages = imported.map((p, i) => ({ id: p.id!, sourceURL: crawled[i]!.url }));
      locked.status = 'completed';
      locked.completedAt = ctx.clock.now();
      await ctx.finishIn?.(tx);
      return { pages: imported.length };
    });
  },
  async onFinalFailure({ runId }, error, ctx) {
    await markFailed(ctx.em, runId, error.message, ctx.clock.now());
  },
  async unfinished(em, { before, limit }) {
    const open = await em.find(ImportRun, { status: { $in: ['pending', 'in-progress'] }, createdAt: { $lt: before } }, { fields: ['id'], orderBy: { createdAt: 'asc' }, limit });
    return open.map((run) => ({ runId: run.id }));
  },
});

/**
 * The pages go into the run's change request, its starter recorded as a contributor; the
 * space's search is not re-indexed (a change request's content is not in it). A change
 * request archived or merged since the run started fails the run for good.
 */
async function commitIntoChangeRequest(tx: EntityManager, space: Space, run: ImportRun, addPages: (em: EntityManager, head: Revision) => Promise<RevisionInput>) {
  const changeRequest = await tx.findOne(ChangeRequest, { id: run.changeRequest!.id });
  if (!changeRequest) throw new UnrecoverableError('The target change request was deleted');
  try {
    await commitOnChangeRequest(tx, space, changeRequest, addPages, { contributor: run.createdBy?.id ?? null });
  } catch (err) {
    if (err instanceof ChangeRequestClosedError) throw new UnrecoverableError(err.message);
    throw err;
  }
}

/** Fails a run that has not ended; one conditional update, so a run that just completed stays completed. */
export async function markFailed(em: EntityManager, runId: string, message: string, now: Date) {
  await em.nativeUpdate(ImportRun, { id: runId, status: { $in: ['pending', 'in-progress'] } }, { status: 'failed', error: redactText(message).slice(0, 2000), completedAt: now });
}

/** The imported pages become children of `parentId`, or follow the existing pages when there is none. */
function placeUnder(existing: PageSpec[], imported: PageSpec[], parentId: string | null): PageSpec[] {
  if (!parentId) return [...existing, ...imported];
  let found = false;
  const visit = (specs: PageSpec[]): PageSpec[] =>
    specs.map((s) => {
      if (s.id === parentId) {
        found = true;
        return { ...s, children: [...(s.children ?? []), ...imported] };
      }
      return { ...s, children: visit(s.children ?? []) };
    });
  const placed = visit(existing);
  if (!found) throw new UnrecoverableError(`The target page ${parentId} is no longer in the target content`);
  return placed;
}
