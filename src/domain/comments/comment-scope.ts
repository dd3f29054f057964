import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { loadSpace, type LoadedSpace } from '../content/load-content.ts';
import type { ContentView } from '../content/content.policy.ts';
import { loadChangeRequest } from '../change-requests/load-change-request.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import type { Resource } from '../policy/authorize.ts';

/**
 * Where a discussion lives: a space's own comments (`changeRequest` null), or those of one
 * of its change requests. The caller's role on the space decides what they may do in both.
 */
export type CommentScope = LoadedSpace & { changeRequest: ChangeRequest | null };

/** The revision a new comment is posted on: the change request's, or the space's current one. */
export function scopeRevision(scope: CommentScope): string {
  return scope.changeRequest?.revision ?? scope.space.revision;
}

export async function loadSpaceScope(em: EntityManager, actor: Actor, spaceId: string): Promise<CommentScope> {
  return { ...(await loadSpace(em, actor, spaceId)), changeRequest: null };
}

/** The space of the path (`spaceId`), as the place of its own comments. */
export const spaceCommentsResource: Resource<CommentScope, ContentView, { params: { spaceId: string } }> = {
  name: 'space',
  load: (em, actor, { params }) => loadSpaceScope(em, actor, params.spaceId),
  view: (s) => s.view,
};

/** The change request of the path (`spaceId`, `changeRequestId`: id or number), as the place of its comments. */
export const changeRequestCommentsResource: Resource<CommentScope, ContentView, { params: { spaceId: string; changeRequestId: string } }> = {
  name: 'change request',
  async load(em, actor, { params }) {
    const { space, access, view, changeRequest } = await loadChangeRequest(em, actor, params.spaceId, params.changeRequestId);
    return { space, access, view, changeRequest };
  },
  view: (s) => s.view,
};
