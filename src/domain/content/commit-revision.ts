import type { EntityManager } from '@mikro-orm/postgresql';
import { Revision, type RevisionGit, type RevisionType } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { newId } from '../shared/ids.ts';
import { holdContentWriteLock } from './content-lock.ts';
import { storePageTree, type PageSpec } from './page-tree.ts';

export type RevisionInput = {
  pages: PageSpec[];
  /** File entry hashes (see storeFiles). */
  files?: string[];
  variables?: Record<string, string | number | boolean>;
  git?: RevisionGit | null;
  type?: RevisionType;
  /** false: store the revision without making it the space's content (standalone imports). */
  makeCurrent?: boolean;
};

/**
 * Stores a new revision of a space and makes it the space's content. Pages and bodies
 * already stored are not written again, so the cost follows what changed. The revision
 * and the space's pointer change in one transaction (`em` is the caller's).
 */
export async function commitRevision(em: EntityManager, space: Space, input: RevisionInput): Promise<Revision> {
  return em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    const { roots } = await storePageTree(tx, input.pages);
    return storeRevision(tx, space, roots, input);
  });
}

async function storeRevision(em: EntityManager, space: Space, roots: string[], input: RevisionInput): Promise<Revision> {
  const revision = em.create(Revision, {
    id: newId(),
    space,
    parents: [space.revision],
    type: input.type ?? 'edits',
    pages: roots,
    files: input.files ?? [],
    variables: input.variables ?? {},
    git: input.git ?? null,
  });
  if (input.makeCurrent !== false) space.revision = revision.id;
  await em.flush();
  return revision;
}
