import type { EntityManager } from '@mikro-orm/postgresql';
import { loadChangeRequestCounts, type ChangeRequestCounts } from '../../domain/change-requests/counts.ts';
import { ChangeRequest } from '../../domain/entities/change-request.entity.ts';
import type { Revision } from '../../domain/entities/revision.entity.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentUser } from '../users/user.presenter.ts';
import type { ChangeRequestWire } from './change-requests.schema.ts';

export type ChangeRequestBody = z.infer<typeof ChangeRequestWire>;

/** What a ChangeRequest body needs beyond its row: its counts and the space's current (main) revision. */
export type ChangeRequestFacts = { counts: ChangeRequestCounts; mainRevision: string };

/**
 * `outdated`: a draft or open change request is outdated when main has moved past the
 * revision its content is based on (`revisionMergedAncestor`); an update from main catches
 * it up. Once merged or archived it takes no more updates, so it is never outdated.
 */
export function isOutdated(cr: ChangeRequest, mainRevision: string): boolean {
  return (cr.status === 'draft' || cr.status === 'open') && cr.revisionMergedAncestor !== mainRevision;
}

/** The change request's app and API addresses. */
export function changeRequestUrls(urls: Urls, spaceId: string, cr: Pick<ChangeRequest, 'id' | 'number'>) {
  return {
    app: urls.appLink(`/s/${spaceId}/~/changes/${cr.number}`),
    location: urls.location(`/spaces/${spaceId}/change-requests/${cr.id}`),
  };
}

/** `createdBy` must be loaded. */
export function presentChangeRequest(cr: ChangeRequest, facts: ChangeRequestFacts, urls: Urls): ChangeRequestBody {
  const spaceId = cr.space.id;
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description ? { description: cr.description as ChangeRequestBody['description'] } : {}),
    createdBy: presentUser(cr.createdBy.getEntity(), urls),
    createdAt: cr.createdAt.toISOString(),
    updatedAt: cr.updatedAt.toISOString(),
    space: spaceId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    revisionMergedAncestor: cr.revisionMergedAncestor,
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: facts.counts.comments,
    outdated: isOutdated(cr, facts.mainRevision),
    ...(cr.cluster ? { conversationsIssuesCluster: cr.cluster.id } : {}),
    urls: changeRequestUrls(urls, spaceId, cr),
  };
}

/**
 * Change requests of any spaces, presented together: authors, counts and the spaces'
 * current revisions are each read once for the whole list (a page costs three queries).
 * Main's revision is read from the row, not from a space entity loaded earlier, so
 * `outdated` is right even after a merge in the same request.
 */
export async function presentChangeRequests(em: EntityManager, crs: ChangeRequest[], urls: Urls): Promise<ChangeRequestBody[]> {
  if (crs.length === 0) return [];
  await em.populate(crs, ['createdBy']);
  const counts = await loadChangeRequestCounts(em, crs.map((c) => c.id));
  const spaceIds = [...new Set(crs.map((c) => c.space.id))];
  const rows = await em.execute<Array<{ id: string; revision: string }>>('select id, revision from spaces where id in (?)', [spaceIds]);
  const main = new Map(rows.map((r) => [r.id, r.revision]));
  return crs.map((cr) => presentChangeRequest(cr, { counts: counts.get(cr.id)!, mainRevision: main.get(cr.space.id)! }, urls));
}

export async function presentOneChangeRequest(em: EntityManager, cr: ChangeRequest, urls: Urls): Promise<ChangeRequestBody> {
  return (await presentChangeRequests(em, [cr], urls))[0]!;
}

/** A `merge` revision's `mergedFrom`: the change request it merged, as a ChangeRequest body. */
export async function presentMergedFrom(em: EntityManager, revision: Revision, urls: Urls): Promise<ChangeRequestBody | undefined> {
  if (!revision.mergedFrom) return undefined;
  const cr = await em.findOne(ChangeRequest, { id: revision.mergedFrom });
  return cr ? presentOneChangeRequest(em, cr, urls) : undefined;
}
