import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { commitOnCurrent } from '../domain/content/commit-revision.ts';
import { specsOf } from '../domain/content/current-pages.ts';
import { storeFiles } from '../domain/content/files.ts';
import { loadFiles } from '../domain/content/revision-reader.ts';
import { GitImport } from '../domain/entities/git-import.entity.ts';
import { Space } from '../domain/entities/space.entity.ts';
import { carryFileIds, carryPageIds } from '../domain/imports/carry-ids.ts';
import { cloneRepository } from '../domain/imports/git-clone.ts';
import { redactText, redactUrl } from '../domain/net/redact.ts';
import { readGitLayout, type FileTree } from '../domain/imports/git-layout.ts';
import { OutboundError } from '../domain/net/guarded-http.ts';
import { contentChangeRecorder } from './content-changed.ts';
import { defineJob } from './define-job.ts';

/**
 * Imports a Git repository laid out for GitBook's Git Sync into a space: a shallow clone
 * through the guarded client, the layout read into pages and files, one new revision.
 * Re-running after a crash clones again and commits once: the import row says whether
 * it already finished, and it is marked finished in the commit's own transaction.
 */
export const gitImportJob = defineJob({
  name: 'git.import',
  queue: 'imports',
  payload: z.object({ importId: z.string().min(1).max(20) }),
  retry: { attempts: 4, backoff: { type: 'exponential', delay: 15_000 } },
  async handle({ importId }, ctx) {
    const imp = await ctx.em.findOne(GitImport, { id: importId });
    if (!imp || imp.status === 'completed' || imp.status === 'failed') return { skipped: true };
    const space = await ctx.em.findOne(Space, { id: imp.space.id });
    if (!space || space.deletedAt) return finish(ctx.em, imp, ctx.clock.now(), { error: 'The space was deleted before the import ran' });
    imp.status = 'running';
    await ctx.em.flush();

    let repo;
    try {
      repo = await cloneRepository(ctx.services.http, imp.url, imp.ref);
    } catch (err) {
      // A refused or malformed address will not get better by retrying.
      if (err instanceof OutboundError && (err.code === 'REFUSED' || err.code === 'BAD_URL')) throw new UnrecoverableError(err.message);
      throw err;
    }
    try {
      await ctx.reportProgress({ stage: 'reading', oid: repo.oid });
      const layout = await readGitLayout(inDirectory(repo.tree, imp.projectDirectory ?? null));
      // The revision and the import's completion commit together: a run that dies after
      // this transaction is seen as done by its retry, never committed twice.
      const revision = await ctx.em.transactional(async (tx) => {
        const locked = await tx.findOneOrFail(GitImport, { id: importId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (locked.status !== 'running') return null;
        const rev = await commitOnCurrent(
          tx,
          space,
          async (em, current) => ({
            // The whole tree is replaced, keeping the ids of pages and files found at the same paths.
            pages: carryPageIds(layout.pages, await specsOf(em, current)),
            files: await storeFiles(em, ctx.services.blobs, carryFileIds(layout.files, await loadFiles(em, current.files))),
            variables: current.variables,
            git: { oid: repo.oid, message: repo.message, url: redactUrl(imp.url), ref: imp.ref, createdByGitBook: false },
            makeCurrent: !imp.standalone,
          }),
          contentChangeRecorder(ctx.outbox),
        );
        locked.revision = rev.id;
        await finish(tx, locked, ctx.clock.now(), {});
        await ctx.finishIn?.(tx);
        return rev;
      });
      if (!revision) return { skipped: true };
      await ctx.reportProgress({ stage: 'committed', revision: revision.id });
      return { revision: revision.id, pages: layout.pages.length, files: layout.files.length };
    } finally {
      await repo.dispose();
    }
  },
  async onFinalFailure({ importId }, error, ctx) {
    // Under the row's lock: an import that just finished keeps its outcome.
    await ctx.em.transactional(async (tx) => {
      const imp = await tx.findOne(GitImport, { id: importId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (imp && (imp.status === 'pending' || imp.status === 'running')) await finish(tx, imp, ctx.clock.now(), { error: error.message });
    });
  },
  async unfinished(em, { before, limit }) {
    const open = await em.find(GitImport, { status: { $in: ['pending', 'running'] }, createdAt: { $lt: before } }, { fields: ['id'], orderBy: { createdAt: 'asc' }, limit });
    return open.map((imp) => ({ importId: imp.id }));
  },
});

/** Ends an import and drops the credentials its URL may have carried. */
async function finish(em: EntityManager, imp: GitImport, now: Date, outcome: { error?: string }) {
  imp.status = outcome.error ? 'failed' : 'completed';
  imp.error = outcome.error ? redactText(outcome.error).slice(0, 2000) : null;
  imp.url = redactUrl(imp.url);
  imp.finishedAt = now;
  await em.flush();
  return { error: outcome.error };
}

/** `repoProjectDirectory`: the part of the repository that holds the documentation. */
function inDirectory(tree: FileTree, dir: string | null): FileTree {
  if (!dir) return tree;
  const prefix = `${dir.replace(/^\/+|\/+$/g, '')}/`;
  return {
    paths: tree.paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)),
    read: (path) => tree.read(prefix + path),
  };
}
