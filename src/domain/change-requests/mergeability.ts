import type { EntityManager } from '@mikro-orm/postgresql';
import { loadRevision } from '../content/revision-reader.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { mainRevisionId, readChangeRequestRow } from './change-request-row.ts';
import { assertEditable } from './commit-change-request.ts';
import { judgeRules } from './judge-rules.ts';
import type { UnmetRule } from './merge-rules.ts';
import { mergeRevisions, type ContentConflict } from './merge-revisions.ts';

export type Mergeability = { mergeable: boolean; outdated: boolean; conflicts: ContentConflict[]; unmetRules: UnmetRule[]; bypass: boolean };

/**
 * What merging the change request now would do, for `actor`, without changing anything:
 * the content conflicts, the unmet merge rules (listed even when the actor may bypass them),
 * and whether main moved since it was last based on it. An archived or merged change request
 * is refused like the merge itself (409).
 */
export async function judgeMergeability(em: EntityManager, space: Space, changeRequestId: string, actor: User): Promise<Mergeability> {
  const row = await readChangeRequestRow(em, changeRequestId, { lock: false });
  assertEditable(row.status);
  const main = await mainRevisionId(em, space);
  const { verdict } = await judgeRules(em, space, row, main, actor);
  const outdated = main !== row.revisionMergedAncestor;
  let conflicts: ContentConflict[] = [];
  if (outdated) {
    const base = await loadRevision(em, space, row.revisionMergedAncestor);
    const outcome = await mergeRevisions(em, base, await loadRevision(em, space, main), await loadRevision(em, space, row.revision));
    if (outcome.result === 'conflicts') conflicts = outcome.conflicts;
  }
  const mergeable = conflicts.length === 0 && (verdict.unmet.length === 0 || verdict.bypass);
  return { mergeable, outdated, conflicts, unmetRules: verdict.unmet, bypass: verdict.bypass };
}
