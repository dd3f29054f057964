import type { EntityManager } from '@mikro-orm/postgresql';
import { commitOnCurrent, type ContentChangeRecorder } from '../content/commit-revision.ts';
import { holdContentWriteLock } from '../content/content-lock.ts';
import { loadRevision } from '../content/revision-reader.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { PreconditionFailedError } from '../shared/errors.ts';
import { mainRevisionId, MergeConflicts, readChangeRequestRow } from './change-request-row.ts';
import { assertEditable } from './commit-change-request.ts';
import { judgeRules } from './judge-rules.ts';
import type { UnmetRule } from './merge-rules.ts';
import { mergeRevisions, type ContentConflict } from './merge-revisions.ts';

/** The merge rules in force are not met, and the caller may not bypass them (412). */
export class MergeRulesUnmetError extends PreconditionFailedError {
  readonly unmet: UnmetRule[];
  constructor(unmet: UnmetRule[]) {
    super(`Merge rules not met: ${unmet.map((u) => `${u.rule} (${u.message})`).join('; ')}`);
    this.unmet = unmet;
  }
}

export type MergeOutcome = { result: 'merge'; revision: string } | { result: 'conflicts'; revision: string; conflicts: ContentConflict[] };

/**
 * Merges a change request into main: three-way (base: the main revision the change request
 * is based on, ours: main now, theirs: the change request's head), committed as main's new
 * revision of type `merge` with both heads as parents, page ids kept. Main moving meanwhile
 * is merged against again (commitOnCurrent). Conflicts answer `conflicts` and change nothing.
 *
 * The change request's row is held from the start (as its content commits hold it), so two
 * merges of one change request take turns and the second finds it merged (409); no review
 * or commit lands between the rules' check and the merge.
 */
export async function mergeChangeRequest(em: EntityManager, space: Space, changeRequestId: string, actor: User, onChange: ContentChangeRecorder): Promise<MergeOutcome> {
  return em.transactional(async (tx) => {
    await holdContentWriteLock(tx);
    const row = await readChangeRequestRow(tx, changeRequestId, { lock: true });
    assertEditable(row.status);
    const { verdict, strictlyUpToDate } = await judgeRules(tx, space, row, await mainRevisionId(tx, space), actor);
    if (verdict.unmet.length && !verdict.bypass) throw new MergeRulesUnmetError(verdict.unmet);
    const base = await loadRevision(tx, space, row.revisionMergedAncestor);
    const head = await loadRevision(tx, space, row.revision);
    let merged;
    try {
      merged = await commitOnCurrent(
        tx,
        space,
        async (inner, current) => {
          // Main moved after the check: "up to date" no longer holds for this merge.
          if (strictlyUpToDate && current.id !== base.id) {
            throw new MergeRulesUnmetError([{ rule: 'require_up_to_date_change_request', message: 'main changed while merging: update the change request first' }]);
          }
          const outcome = await mergeRevisions(inner, base, current, head);
          if (outcome.result === 'conflicts') throw new MergeConflicts(outcome.conflicts);
          return { ...outcome.content, type: 'merge' as const, alsoParents: [head.id], mergedFrom: row.id };
        },
        onChange,
      );
    } catch (err) {
      if (err instanceof MergeConflicts) return { result: 'conflicts' as const, revision: row.revision, conflicts: err.conflicts };
      throw err;
    }
    await tx.execute(
      `update change_requests set status = 'merged', revision_merged = ?, merged_by_id = ?, merged_at = now(), updated_at = now() where id = ?`,
      [merged.id, actor.id, row.id],
    );
    return { result: 'merge' as const, revision: merged.id };
  });
}
