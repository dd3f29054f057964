import type { EntityManager } from '@mikro-orm/postgresql';
import { loadRevision } from '../content/revision-reader.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { mainRevisionId, MergeConflicts, readChangeRequestRow } from './change-request-row.ts';
import { commitOnChangeRequest } from './commit-change-request.ts';
import { mergeRevisions, type ContentConflict } from './merge-revisions.ts';

export type UpdateOutcome = { result: 'update'; revision: string } | { result: 'conflicts'; revision: string; conflicts: ContentConflict[] };

/** Thrown from the build to commit nothing: main has not moved since the last update. */
class AlreadyUpToDate extends Error {
  readonly head: string;
  constructor(head: string) {
    super('already up to date');
    this.head = head;
  }
}

/**
 * Brings main's current content into a change request: three-way (base: the main revision
 * it is based on, ours: its head, theirs: main now), committed as its new head of type
 * `update` with main's revision as second parent, and now based on that revision. Already
 * up to date: answers the head and changes nothing. Conflicts change nothing either.
 * Built under the change request's row lock (commitOnChangeRequest), so an edit committed
 * meanwhile is merged, never lost; an archived or merged change request refuses (409).
 */
export async function updateChangeRequest(em: EntityManager, space: Space, changeRequest: ChangeRequest): Promise<UpdateOutcome> {
  try {
    const revision = await commitOnChangeRequest(em, space, changeRequest, async (tx, head) => {
      const row = await readChangeRequestRow(tx, changeRequest.id, { lock: false });
      const main = await mainRevisionId(tx, space);
      if (main === row.revisionMergedAncestor) throw new AlreadyUpToDate(head.id);
      const outcome = await mergeRevisions(tx, await loadRevision(tx, space, row.revisionMergedAncestor), head, await loadRevision(tx, space, main));
      if (outcome.result === 'conflicts') throw new MergeConflicts(outcome.conflicts);
      return { ...outcome.content, type: 'update', alsoParents: [main], mergedAncestor: main };
    });
    return { result: 'update', revision: revision.id };
  } catch (err) {
    if (err instanceof AlreadyUpToDate) return { result: 'update', revision: err.head };
    if (err instanceof MergeConflicts) {
      const row = await readChangeRequestRow(em, changeRequest.id, { lock: false });
      return { result: 'conflicts', revision: row.revision, conflicts: err.conflicts };
    }
    throw err;
  }
}
