import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentRoles } from '../content/content-roles.ts';
import { readableWhere } from '../content/readable.ts';
import { ChangeRequestContributor } from '../entities/change-request-contributor.entity.ts';
import { ChangeRequest, type ChangeRequestStatus } from '../entities/change-request.entity.ts';
import { RequestedReviewer } from '../entities/requested-reviewer.entity.ts';
import { byTime, findPage, type Page, type PageRequest } from '../shared/paging.ts';

export type ChangeRequestFilters = {
  status: ChangeRequestStatus;
  creator?: string | undefined;
  contributor?: string | undefined;
  requestedReviewer?: string | undefined;
  conversationsIssuesCluster?: string | undefined;
};

/** Newest activity first; the id keeps the order total. */
const NEWEST_FIRST = byTime('updatedAt', 'desc');

/** The filters as one condition; contributors and requested reviewers are subqueries on their tables. */
function filterWhere(em: EntityManager, f: ChangeRequestFilters): Record<string, unknown> {
  const and: Record<string, unknown>[] = [{ status: f.status }];
  if (f.creator !== undefined) and.push({ createdBy: f.creator });
  if (f.conversationsIssuesCluster !== undefined) and.push({ cluster: f.conversationsIssuesCluster });
  if (f.contributor !== undefined) {
    and.push({ id: { $in: em.createQueryBuilder(ChangeRequestContributor, 'crc').select('crc.changeRequest').where({ user: f.contributor }) } });
  }
  if (f.requestedReviewer !== undefined) {
    and.push({ id: { $in: em.createQueryBuilder(RequestedReviewer, 'crr').select('crr.changeRequest').where({ user: f.requestedReviewer }) } });
  }
  return { $and: and };
}

/** A page of one space's change requests. */
export async function listSpaceChangeRequests(em: EntityManager, spaceId: string, filters: ChangeRequestFilters, page: PageRequest): Promise<Page<ChangeRequest>> {
  const where = { space: spaceId, ...filterWhere(em, filters) };
  return findPage(em, ChangeRequest, where as FilterQuery<ChangeRequest>, NEWEST_FIRST, page, { populate: ['createdBy'] });
}

/**
 * A page of the change requests of every space (not in the bin) of the organization that
 * the caller may read. Readability is the spaces' SQL condition (readable.ts) applied
 * through the join, so pages are cut in the database and never hold, count or hint at a
 * change request of a space the caller cannot see.
 */
export async function listOrganizationChangeRequests(
  em: EntityManager,
  access: ContentRoles,
  filters: ChangeRequestFilters,
  page: PageRequest,
): Promise<Page<ChangeRequest>> {
  const spaces = { organization: access.org.organization, deletedAt: null, ...(await readableWhere(em, access, 'space')) };
  const where = { space: spaces, ...filterWhere(em, filters) };
  return findPage(em, ChangeRequest, where as FilterQuery<ChangeRequest>, NEWEST_FIRST, page, { populate: ['createdBy'] });
}
