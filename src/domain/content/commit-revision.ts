import type { EntityManager } from '@mikro-orm/postgresql';
import { Revision, type RevisionGit, type RevisionType } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { ConflictError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { holdContentWriteLock } from './content-lock.ts';
import { storePageTree, type PageSpec } from './page-tree.ts';
import { loadRevision } from './revision-reader.ts';

export type RevisionInput = {
  pages: PageSpec[];
  /** File entry hashes (see storeFiles). */
  files?: string[];
  variables?: Record<string, string | number | boolean>;
  git?: RevisionGit | null;
  type?: RevisionType;
  /** Parents after the revision it is built on (a merge names the change request's head). */
  alsoParents?: string[];
  /** On a `merge` of main: the change request merged. */
  mergedFrom?: string | null;
  /** false: store the revision without making it the space's content (standalone imports). */
  makeCurrent?: boolean;
};

/**
 * Records, in the commit's own transaction, what must follow a change of a space's
 * current revision (the jobs layer supplies it: see `contentChangeRecorder`). It is a
 * required argument of every commit, so no writer can forget it.
 */
export type ContentChangeRecorder = (em: EntityManager, space: Space) => void;

/** A change that a writer that moved the space meanwhile has made impossible to commit as asked. */
export class RevisionConflictError extends ConflictError {}

/**
 * Re-applying a change costs a rebuild, and after the first conflict the space's row is
 * held (see `commitOnCurrent`), so a second attempt cannot lose again; the bound is a guard.
 */
const MAX_ATTEMPTS = 3;

/**
 * Builds a change on a space's current content and commits it as the space's new current
 * revision, as a compare-and-swap: the commit only lands on the revision the change was
 * built from. When another writer moved the space in between, the fresh current revision
 * is read and `change` is applied to it again — so `change` must be a function of the
 * content it is given (append pages, add or replace one's own pages), never of content
 * read before. `change` throws a `ConflictError` (409) when it cannot apply to what it
 * finds. The content-changed side effects are recorded in the same transaction.
 *
 * This is the one way to change a space's current content: templates and imports go
 * through it, and change-request merges are to (their conflicts being the 409 case).
 */
export async function commitOnCurrent(
  em: EntityManager,
  space: Space,
  change: (tx: EntityManager, current: Revision) => Promise<RevisionInput>,
  onChange: ContentChangeRecorder,
): Promise<Revision> {
  return em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    // The first attempt builds without holding the space, so a slow build blocks nobody.
    let baseId = await currentRevisionId(tx, space, { lock: false });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const input = await change(tx, await loadRevision(tx, space, baseId));
      const outcome = await storeAndSwap(tx, space, baseId, input, onChange);
      if ('committed' in outcome) return outcome.committed;
      // Someone committed meanwhile; `storeAndSwap` now holds the row, so the next
      // attempt builds on a revision nobody can move before this transaction ends.
      baseId = outcome.movedTo;
    }
    throw new RevisionConflictError('The space changed while this change was being applied; try again');
  });
}

/**
 * Commits `input` as the space's new current revision, built on `parent` (the revision the
 * caller read). Fails with `RevisionConflictError` when the space has moved off `parent`:
 * for callers that cannot rebuild their change; the others use `commitOnCurrent`.
 */
export async function commitRevision(
  em: EntityManager,
  space: Space,
  input: RevisionInput & { parent: string },
  onChange: ContentChangeRecorder,
): Promise<Revision> {
  return em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    const outcome = await storeAndSwap(tx, space, input.parent, input, onChange);
    if ('movedTo' in outcome) throw new RevisionConflictError(`The space's current revision is no longer ${input.parent}`);
    return outcome.committed;
  });
}

/**
 * Stores the revision and, under the space row's lock, moves the space to it if it is
 * still on `parent`. When it is not, stores nothing and says where the space is now; the
 * row stays locked until the transaction ends either way.
 */
async function storeAndSwap(
  tx: EntityManager,
  space: Space,
  parent: string,
  input: RevisionInput,
  onChange: ContentChangeRecorder,
): Promise<{ committed: Revision } | { movedTo: string }> {
  const makeCurrent = input.makeCurrent !== false;
  if (makeCurrent) {
    const current = await currentRevisionId(tx, space, { lock: true });
    if (current !== parent) return { movedTo: current };
  }
  const { roots } = await storePageTree(tx, input.pages);
  const revision = tx.create(Revision, {
    id: newId(),
    space,
    parents: [parent, ...(input.alsoParents ?? [])],
    type: input.type ?? 'edits',
    pages: roots,
    files: input.files ?? [],
    variables: input.variables ?? {},
    git: input.git ?? null,
    mergedFrom: input.mergedFrom ?? null,
  });
  if (makeCurrent) {
    space.revision = revision.id;
    onChange(tx, space);
  }
  await tx.flush();
  return { committed: revision };
}

/**
 * The space's current revision as committed now, not as the entity was loaded.
 * `for no key update` rather than `for update`: inserting a revision takes a key-share
 * lock on the space row, which `for update` would wait on (two writers deadlocking).
 */
async function currentRevisionId(tx: EntityManager, space: Space, opts: { lock: boolean }): Promise<string> {
  const rows = await tx.execute<{ revision: string }[]>(`select revision from spaces where id = ?${opts.lock ? ' for no key update' : ''}`, [space.id]);
  if (!rows[0]) throw notFound('Space');
  return rows[0].revision;
}
