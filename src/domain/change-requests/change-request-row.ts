import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeRequestStatus } from '../entities/change-request.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { notFound } from '../shared/errors.ts';
import type { ContentConflict } from './merge-revisions.ts';

/** A change request as committed now (not as an entity loaded earlier remembers it). */
export type ChangeRequestRow = {
  id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description: Record<string, unknown> | null;
  createdBy: string;
  revision: string;
  revisionMergedAncestor: string;
};

/**
 * Reads the change request's row; `lock` holds it (`for no key update`, as content commits
 * to the change request do) until the transaction ends, so merges and commits of one change
 * request take turns.
 */
export async function readChangeRequestRow(em: EntityManager, id: string, opts: { lock: boolean }): Promise<ChangeRequestRow> {
  const rows = await em.execute<ChangeRequestRow[]>(
    `select id, number, status, subject, description, created_by_id as "createdBy", revision, revision_merged_ancestor as "revisionMergedAncestor"
       from change_requests where id = ?${opts.lock ? ' for no key update' : ''}`,
    [id],
  );
  if (!rows[0]) throw notFound('Change request');
  return rows[0];
}

/** Main's current revision as committed now. */
export async function mainRevisionId(em: EntityManager, space: Space): Promise<string> {
  const rows = await em.execute<{ revision: string }[]>('select revision from spaces where id = ?', [space.id]);
  if (!rows[0]) throw notFound('Space');
  return rows[0].revision;
}

/** Thrown from inside a commit's build to roll it back when the merge found conflicts. */
export class MergeConflicts extends Error {
  readonly conflicts: ContentConflict[];
  constructor(conflicts: ContentConflict[]) {
    super(`${conflicts.length} merge conflict(s)`);
    this.conflicts = conflicts;
  }
}
