import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeRequest, type ChangeRequestStatus } from '../entities/change-request.entity.ts';
import { IssueCluster } from '../entities/issue-cluster.entity.ts';
import { BadRequestError, ConflictError, notFound } from '../shared/errors.ts';

export type ChangeRequestChanges = {
  subject?: string | undefined;
  description?: Record<string, unknown> | null | undefined;
  status?: Exclude<ChangeRequestStatus, 'merged'> | undefined;
  /** null unlinks. */
  cluster?: IssueCluster | null | undefined;
};

/** A cluster a change request of this organization may be linked to; another organization's is a 400 like a missing one. */
export async function clusterOfOrganization(em: EntityManager, organizationId: string, clusterId: string, field: string): Promise<IssueCluster> {
  const cluster = await em.findOne(IssueCluster, { id: clusterId, organization: organizationId });
  if (!cluster) throw new BadRequestError(`${field}: no issue cluster "${clusterId}" in this organization`);
  return cluster;
}

/**
 * Changes a change request's subject, description, status or cluster in one conditional
 * UPDATE. A status change carries `status <> 'merged'` in its WHERE, so it cannot undo a
 * merge that commits at the same moment: the row lock makes the two take turns and the
 * later one sees the other's outcome (409 for a status change after a merge). Archived
 * change requests may be reopened (draft or open).
 */
export async function patchChangeRequest(em: EntityManager, changeRequest: ChangeRequest, changes: ChangeRequestChanges): Promise<void> {
  const set: Record<string, unknown> = {};
  if (changes.subject !== undefined) set.subject = changes.subject;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.cluster !== undefined) set.cluster = changes.cluster?.id ?? null;
  if (Object.keys(set).length === 0) return;
  const where = changes.status === undefined ? { id: changeRequest.id } : { id: changeRequest.id, status: { $ne: 'merged' as const } };
  const updated = await em.nativeUpdate(ChangeRequest, where, { ...set, updatedAt: new Date() });
  if (updated === 0) {
    const still = await em.count(ChangeRequest, { id: changeRequest.id });
    if (still === 0) throw notFound('Change request');
    throw new ConflictError('The change request is merged: its status cannot change');
  }
  // Written by SQL: the caller's entity is read again so the answer shows the change.
  await em.refresh(changeRequest);
}
