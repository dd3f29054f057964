import { assertNotDeleted } from '../content/spaces.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { holdContentWriteLock } from '../content/content-lock.ts';
import type { RevisionInput } from '../content/commit-revision.ts';
import { storePageTree } from '../content/page-tree.ts';
import { loadRevision } from '../content/revision-reader.ts';
import type { ChangeRequest, ChangeRequestStatus } from '../entities/change-request.entity.ts';
import { Revision } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { ConflictError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

/** An archived or merged change request takes no more content. */
export class ChangeRequestClosedError extends ConflictError {}

const CLOSED: ReadonlySet<ChangeRequestStatus> = new Set(['archived', 'merged']);

export function assertEditable(status: ChangeRequestStatus): void {
  if (CLOSED.has(status)) throw new ChangeRequestClosedError(`The change request is ${status}: it takes no more changes`);
}

/** `alsoParents`: more parents after the change request's head (an update names the main revision it merged). */
export type ChangeRequestCommit = RevisionInput & {
  /** The main revision the content is now based on (an update from main moves it). */
  mergedAncestor?: string;
};

/**
 * Builds a change on a change request's current revision and commits it as the head of its
 * chain. The change request's row is held (`for no key update`, so comments and reviews
 * referencing it are not blocked) from before the build to the commit: writers to one
 * change request take turns, each building on the head the previous one left, so none is
 * lost. An archived or merged change request refuses (409).
 *
 * The contributor, when given, is recorded (the `contributor` list filter).
 */
export async function commitOnChangeRequest(
  em: EntityManager,
  space: Space,
  changeRequest: ChangeRequest,
  change: (tx: EntityManager, head: Revision) => Promise<ChangeRequestCommit>,
  opts: { contributor?: string | null } = {},
): Promise<Revision> {
  assertNotDeleted(space);
  const committed = await em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    const rows = await tx.execute<{ revision: string; status: ChangeRequestStatus }[]>(
      'select revision, status from change_requests where id = ? for no key update',
      [changeRequest.id],
    );
    const row = rows[0];
    if (!row) throw notFound('Change request');
    assertEditable(row.status);
    const input = await change(tx, await loadRevision(tx, space, row.revision));
    const { roots } = await storePageTree(tx, input.pages);
    const revision = tx.create(Revision, {
      id: newId(),
      space: space.id,
      parents: [row.revision, ...(input.alsoParents ?? [])],
      type: input.type ?? 'edits',
      pages: roots,
      files: input.files ?? [],
      variables: input.variables ?? {},
      git: input.git ?? null,
      changeRequest: changeRequest.id,
    });
    await tx.flush();
    const mergedAncestor = input.mergedAncestor ?? null;
    await tx.execute(
      'update change_requests set revision = ?, revision_merged_ancestor = coalesce(?, revision_merged_ancestor), updated_at = now() where id = ?',
      [revision.id, mergedAncestor, changeRequest.id],
    );
    if (opts.contributor) {
      await tx.execute(
        'insert into change_request_contributors (change_request_id, user_id, first_contributed_at) values (?, ?, now()) on conflict do nothing',
        [changeRequest.id, opts.contributor],
      );
    }
    return { revision };
  });
  // The row was written by SQL: the caller's entity is read again so it shows the commit.
  await em.refresh(changeRequest);
  return committed.revision;
}
