import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestedReviewer } from '../entities/requested-reviewer.entity.ts';
import { User } from '../entities/user.entity.ts';
import { loadSpace } from '../content/load-content.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { BadRequestError, whenNotFound } from '../shared/errors.ts';
import { assertEditable, ChangeRequestClosedError } from './commit-change-request.ts';

const WITH_USERS = ['user', 'requestedBy'] as const;

/**
 * Asks users to review a change request. Each must be a member of the organization who can
 * read the space, and not its author (who may not review it): otherwise a 400 naming them
 * and nothing is asked. Asking again is harmless: the one request per user is renewed (who
 * asked, when, on which revision), never doubled.
 */
export async function requestReviewers(em: EntityManager, space: Space, changeRequest: ChangeRequest, requester: User, userIds: string[]): Promise<RequestedReviewer[]> {
  assertEditable(changeRequest.status);
  const ids = [...new Set(userIds)];
  const users = await em.find(User, { id: { $in: ids } });
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const id of ids) {
    const user = byId.get(id);
    if (id === changeRequest.createdBy.id) throw new BadRequestError(`users: "${id}" is the change request's author, who may not review it`);
    // Reading the space as that user answers both: a member of its organization, with access.
    const canRead = user ? await loadSpace(em, { kind: 'user', user }, space.id).then(() => true, whenNotFound(() => false)) : false;
    if (!canRead) throw new BadRequestError(`users: "${id}" is not a member of the organization who can read the space`);
  }
  if (ids.length) {
    // Only while the change request is draft or open, as committed now: one archived or
    // merged since it was loaded asks nobody (409).
    const asked = await em.execute<{ user_id: string }[]>(
      `insert into change_request_requested_reviewers (change_request_id, user_id, requested_by_id, requested_at, revision)
         select c.id, u.id, ?, now(), c.revision from change_requests c, unnest(array[?]::text[]) as u(id)
          where c.id = ? and c.status in ('draft', 'open')
       on conflict (change_request_id, user_id)
         do update set requested_by_id = excluded.requested_by_id, requested_at = excluded.requested_at, revision = excluded.revision
       returning user_id`,
      [requester.id, ids, changeRequest.id],
    );
    if (asked.length === 0) throw new ChangeRequestClosedError('The change request is archived or merged: it takes no more review requests');
  }
  const rows = await em.find(RequestedReviewer, { changeRequest: changeRequest.id, user: { $in: ids } }, { populate: WITH_USERS, refresh: true });
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.user.id)! - order.get(b.user.id)!);
}

/** Everyone asked to review the change request (a short list: read whole, paged by the caller). */
export async function listRequestedReviewers(em: EntityManager, changeRequest: ChangeRequest): Promise<RequestedReviewer[]> {
  return em.find(RequestedReviewer, { changeRequest: changeRequest.id }, { populate: WITH_USERS });
}

/** Withdraws the request to one user; answers whether there was one (idempotent). */
export async function removeRequestedReviewer(em: EntityManager, changeRequest: ChangeRequest, userId: string): Promise<boolean> {
  return (await em.nativeDelete(RequestedReviewer, { changeRequest: changeRequest.id, user: userId })) > 0;
}
