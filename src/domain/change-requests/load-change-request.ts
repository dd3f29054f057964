import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { ChangeRequest } from '../entities/change-request.entity.ts';
import { loadSpace, type LoadedSpace } from '../content/load-content.ts';
import type { Resource } from '../policy/authorize.ts';
import { notFound } from '../shared/errors.ts';
import type { ChangeRequestView } from './change-request.policy.ts';

export type LoadedChangeRequest = LoadedSpace & { changeRequest: ChangeRequest; crView: ChangeRequestView };

/**
 * `{changeRequestId}` is the change request's id or its number in the space. Numbers are
 * short digit strings; ids are 20 base62 characters, so the two cannot be confused.
 */
const NUMBER = /^[1-9][0-9]{0,9}$/;

export function changeRequestWhere(spaceId: string, idOrNumber: string) {
  return NUMBER.test(idOrNumber) ? { space: spaceId, number: Number(idOrNumber) } : { space: spaceId, id: idOrNumber };
}

/** A change request of a space the caller may read; any other is the same 404 as a missing one. */
export async function loadChangeRequest(em: EntityManager, actor: Actor, spaceId: string, idOrNumber: string): Promise<LoadedChangeRequest> {
  const loaded = await loadSpace(em, actor, spaceId);
  const changeRequest = await em.findOne(ChangeRequest, changeRequestWhere(spaceId, idOrNumber), { populate: ['createdBy'] });
  if (!changeRequest) throw notFound('Change request');
  const creator = actor.kind === 'user' && changeRequest.createdBy.id === actor.user.id;
  return { ...loaded, changeRequest, crView: { ...loaded.view, creator } };
}

/** The change request named by the path (`spaceId`, `changeRequestId`). */
export const changeRequestResource: Resource<LoadedChangeRequest, ChangeRequestView, { params: { spaceId: string; changeRequestId: string } }> = {
  name: 'change request',
  load: (em, actor, { params }) => loadChangeRequest(em, actor, params.spaceId, params.changeRequestId),
  view: (c) => c.crView,
};
