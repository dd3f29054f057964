import type { EntityManager } from '@mikro-orm/postgresql';
import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource, type LoadedChangeRequest } from '../../domain/change-requests/load-change-request.ts';
import { editChangeRequestPage } from '../../domain/change-requests/page-edits.ts';
import { PageMissingError, type PageEdit } from '../../domain/content/page-tree-edits.ts';
import { findInTree, loadBody, loadTree } from '../../domain/content/revision-reader.ts';
import type { Revision } from '../../domain/entities/revision.entity.ts';
import type { User } from '../../domain/entities/user.entity.ts';
import { PageWire } from '../content/content.schema.ts';
import { presentPage } from '../content/content.presenter.ts';
import type { ApiDeps } from '../context.ts';
import { defineRoute } from '../http/route.ts';
import { ChangeRequestPageParams, ChangeRequestParams, CreatePageBody, MovePageBody, toPlacement, UpdatePageBody } from './page-edits.schema.ts';

/*
 * Page edits on a change request (beyond GitBook's API, which edits in its app): each one
 * is a new revision of the change request's chain; main content is never touched.
 */
const tags = ['change-requests'];
const base = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const canEdit = { rules: changeRequestRules, action: 'edit' } as const;
const closedNote = ' An archived or merged change request answers 409.';

async function commit(em: EntityManager, subject: LoadedChangeRequest, editor: User, edit: PageEdit) {
  return editChangeRequestPage(em, subject.space, subject.changeRequest, editor, edit);
}

/** The page as the change request now holds it, in the shape getPageById answers (Markdown body). */
async function answerPage(em: EntityManager, deps: ApiDeps, subject: LoadedChangeRequest, revision: Revision, pageId: string) {
  const page = findInTree(await loadTree(em, revision.pages), pageId)!;
  const markdown = (await loadBody(em, page.node.bodyHash ?? null))?.markdown;
  return presentPage(page, { spaceId: subject.space.id, urls: deps.urls, metadata: true }, markdown === undefined ? {} : { markdown });
}

export const pageEditRoutes = [
  defineRoute({
    method: 'post',
    path: `${base}/pages`,
    operationId: 'createPageInChangeRequest',
    summary: `Add a page (document, group or link) to a change request, under a parent page and next to a sibling.${closedNote}`,
    tags,
    params: ChangeRequestParams,
    body: CreatePageBody,
    load: changeRequestResource,
    authorize: canEdit,
    responses: { 201: { description: 'The new page, with its id', schema: PageWire } },
    async handle({ em, deps, actor, body, subject }) {
      const { parent, position, ...page } = body;
      const { revision, pageId } = await commit(em, subject, actor.user, { op: 'create', page: { ...page, ...toPlacement({ parent, position }) } });
      const location = deps.urls.location(`/spaces/${subject.space.id}/change-requests/${subject.changeRequest.id}/content/page/${pageId}`);
      return { status: 201, body: await answerPage(em, deps, subject, revision, pageId), location };
    },
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/page/{pageId}`,
    operationId: 'updatePageInChangeRequest',
    summary: `Change a page of a change request: title, description, emoji, hidden, Markdown body (documents), target (links).${closedNote}`,
    tags,
    params: ChangeRequestPageParams,
    body: UpdatePageBody,
    load: changeRequestResource,
    authorize: canEdit,
    responses: { 200: { description: 'The page', schema: PageWire } },
    async handle({ em, deps, actor, params, body, subject }) {
      const { revision, pageId } = await commit(em, subject, actor.user, { op: 'update', pageId: params.pageId, patch: body });
      return { status: 200, body: await answerPage(em, deps, subject, revision, pageId) };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${base}/page/{pageId}/move`,
    operationId: 'movePageInChangeRequest',
    summary: `Move a page of a change request (with its pages) to another parent and/or next to a sibling; a move that changes nothing is a 409.${closedNote}`,
    tags,
    params: ChangeRequestPageParams,
    body: MovePageBody,
    load: changeRequestResource,
    authorize: canEdit,
    responses: { 200: { description: 'The page', schema: PageWire } },
    async handle({ em, deps, actor, params, body, subject }) {
      const { revision, pageId } = await commit(em, subject, actor.user, { op: 'move', pageId: params.pageId, to: toPlacement(body) });
      return { status: 200, body: await answerPage(em, deps, subject, revision, pageId) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/page/{pageId}`,
    operationId: 'deletePageInChangeRequest',
    summary: `Delete a page of a change request with all its pages (205); 204 when the change request has no such page.${closedNote}`,
    tags,
    params: ChangeRequestPageParams,
    load: changeRequestResource,
    authorize: canEdit,
    responses: { 205: { description: 'Deleted' }, 204: { description: 'No such page in the change request' } },
    async handle({ em, actor, params, subject }) {
      try {
        await commit(em, subject, actor.user, { op: 'delete', pageId: params.pageId });
        return { status: 205 };
      } catch (err) {
        if (err instanceof PageMissingError) return { status: 204 };
        throw err;
      }
    },
  }),
];
