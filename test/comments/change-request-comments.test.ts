import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChangeRequestCounts } from '../../src/domain/change-requests/counts.ts';
import { specsOf } from '../../src/domain/content/current-pages.ts';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let admin: Caller;
let editor: Caller;
let commenter: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;
let cr: ChangeRequest;
let other: ChangeRequest;
const CR_PAGE = 'crOnlyPage0000000001';

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit', 'comment', 'read', 'guest'] as const);
  ({ admin, outsider, members: { edit: editor, comment: commenter, read: reader, guest } } = cast);
  space = await buildSpace(em, cast.org, admin);
  await buildContent(em, space, [{ kind: 'document', title: 'Home', markdown: '# Home\n' }]);
  cr = await buildChangeRequest(em, space, editor);
  const head = await em.findOneOrFail(Revision, { id: cr.revision });
  await buildChangeRequestContent(em, space, cr, editor, [...(await specsOf(em, head)), { id: CR_PAGE, kind: 'document', title: 'Proposed', markdown: 'new' }]);
  other = await buildChangeRequest(em, space, editor);
});
afterAll(() => api.close());

const base = (c: { id: string } | number = cr) => `/v1/spaces/${space.id}/change-requests/${typeof c === 'number' ? c : c.id}/comments`;
const post = (as: Caller, body: unknown, c: { id: string } | number = cr) => api.request('POST', base(c), { token: as.token, body });

async function posted(as: Caller = commenter, body: unknown = { body: { markdown: 'On the proposal' } }, c: { id: string } | number = cr) {
  const res = await post(as, body, c);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string };
}

const crCounts = async () => (await loadChangeRequestCounts(api.em(), [cr.id, other.id]));

describe('change request comments', () => {
  it('opens a thread on a page of the change request’s own revision, naming the change request in its target', async () => {
    const current = await api.em().findOneOrFail(ChangeRequest, { id: cr.id });
    const res = await api.client(commenter.token).spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: 'Why this page?' }, page: CR_PAGE });
    expect(res.status).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments');
    expect(res.data.target).toEqual({ space: space.id, revision: current.revision, changeRequest: cr.id, page: { id: CR_PAGE } });
    expect(res.data.urls.location).toBe(`http://vellum.test${base()}/${res.data.id}`);
    // The page exists only in the change request: the space's own discussion does not know it.
    expectError(await api.request('POST', `/v1/spaces/${space.id}/comments`, { token: commenter.token, body: { body: { markdown: 'x' }, page: CR_PAGE } }), 400, /body\.page/);
  });

  it('addresses the change request by id or number', async () => {
    const c = await posted(commenter, undefined, cr.number);
    const res = await api.client(reader.token).spaces.getCommentInChangeRequest(space.id, String(cr.number), c.id, { format: 'document' as never });
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}');
    expect(res.data.target.changeRequest).toBe(cr.id);
    expect((await api.request('GET', `${base()}/${c.id}`, { token: reader.token })).status).toBe(200);
  });

  it('keeps the discussions apart: a change request’s threads are not the space’s nor another change request’s', async () => {
    const onCr = await posted();
    const onSpace = (await api.request('POST', `/v1/spaces/${space.id}/comments`, { token: commenter.token, body: { body: { markdown: 'space' } } })).body.id as string;
    expectError(await api.request('GET', `/v1/spaces/${space.id}/comments/${onCr.id}`, { token: admin.token }), 404);
    expectError(await api.request('GET', `${base()}/${onSpace}`, { token: admin.token }), 404);
    expectError(await api.request('GET', `${base(other)}/${onCr.id}`, { token: admin.token }), 404);
    expect((await api.request('DELETE', `${base(other)}/${onCr.id}`, { token: admin.token })).status).toBe(204);
    const spaceList = await api.request('GET', `/v1/spaces/${space.id}/comments`, { token: admin.token });
    expect(spaceList.body.items.map((c: { id: string }) => c.id)).not.toContain(onCr.id);
    const crList = await api.client(reader.token).spaces.listCommentsInChangeRequest(space.id, cr.id, { status: 'open' as never });
    expectPublishedShape(crList, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments');
    expect(crList.data.items.map((c) => c.id)).toContain(onCr.id);
    expect(crList.data.items.map((c) => c.id)).not.toContain(onSpace);
  });

  it('counts open threads per change request, and leaves them out of the space’s count', async () => {
    const spaceCount = async () => (await api.request('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.comments as number;
    const before = { space: await spaceCount(), cr: (await crCounts()).get(cr.id)!.comments, other: (await crCounts()).get(other.id)!.comments };
    const made = await Promise.all(Array.from({ length: 6 }, () => posted()));
    await posted(commenter, undefined, other);
    await api.request('PUT', `${base()}/${made[0]!.id}`, { token: admin.token, body: { resolved: true } });
    await api.request('DELETE', `${base()}/${made[1]!.id}`, { token: admin.token });
    const after = await crCounts();
    expect(after.get(cr.id)!.comments).toBe(before.cr + 4);
    expect(after.get(other.id)!.comments).toBe(before.other + 1);
    expect(await spaceCount()).toBe(before.space);
  });

  it('edits, reacts, resolves, deletes through the change request’s paths', async () => {
    const c = await posted(commenter);
    const updated = await api.client(commenter.token).spaces.updateCommentInChangeRequest(space.id, cr.id, c.id, { body: { markdown: 'Better' }, addedReactions: ['✅'] });
    expectPublishedShape(updated, 'PUT', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}');
    expect(updated.data).toMatchObject({ body: { markdown: 'Better' }, editedAt: expect.any(String), reactions: [{ emoji: '✅', count: 1 }] });
    expectError(await api.request('PUT', `${base()}/${c.id}`, { token: editor.token, body: { body: { markdown: 'Not mine' } } }), 403);
    expect((await api.client(commenter.token).spaces.deleteCommentInChangeRequest(space.id, cr.id, c.id)).status).toBe(205);
    expect((await api.request('DELETE', `${base()}/${c.id}`, { token: commenter.token })).status).toBe(204);
  });

  it('replies: post (with format), list, read, update (resolving the thread), delete', async () => {
    const c = await posted(commenter);
    const r = await api.client(editor.token).spaces.postCommentReplyInChangeRequest(space.id, cr.id, c.id, { body: { markdown: 'Done' } }, { format: 'document' as never });
    expectPublishedShape(r, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies');
    expect(r.data.body).toMatchObject({ document: { object: 'document' } });
    const list = await api.client(reader.token).spaces.listCommentRepliesInChangeRequest(space.id, cr.id, c.id);
    expectPublishedShape(list, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies');
    expect(list.data.items.map((x) => x.id)).toEqual([r.data.id]);
    const one = await api.client(reader.token).spaces.getCommentReplyInChangeRequest(space.id, cr.id, c.id, r.data.id);
    expectPublishedShape(one, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}');
    expect(one.data.body).toEqual({ markdown: 'Done' });
    // GitBook's change-request reply update takes the comment update body: `resolved` resolves the thread.
    const updated = await api.client(editor.token).spaces.updateCommentReplyInChangeRequest(space.id, cr.id, c.id, r.data.id, { resolved: true, body: { markdown: 'Done, resolving' } });
    expectPublishedShape(updated, 'PUT', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}');
    expect(updated.data.body).toEqual({ markdown: 'Done, resolving' });
    const thread = (await api.request('GET', `${base()}/${c.id}`, { token: reader.token })).body;
    expect(thread).toMatchObject({ status: 'resolved', resolvedBy: { id: editor.user.id }, replies: 1 });
    // Resolving needs only role comment, not authorship of the reply.
    expect((await api.request('PUT', `${base()}/${c.id}/replies/${r.data.id}`, { token: commenter.token, body: { resolved: false } })).status).toBe(200);
    expect((await api.request('GET', `${base()}/${c.id}`, { token: reader.token })).body.status).toBe('open');
    expectError(await api.request('PUT', `${base()}/${c.id}/replies/${r.data.id}`, { token: reader.token, body: { resolved: true } }), 403);
    expect((await api.client(editor.token).spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, c.id, r.data.id)).status).toBe(205);
  });

  it('answers 404 for unknown change requests, guests and other organizations; 403 to read', async () => {
    expectError(await post(commenter, { body: { markdown: 'x' } }, 9999), 404);
    expectError(await post(commenter, { body: { markdown: 'x' } }, { id: 'noSuchChangeRequest0' }), 404);
    expectError(await post(guest, { body: { markdown: 'x' } }), 404);
    expectError(await post(outsider, { body: { markdown: 'x' } }), 404);
    expectError(await post(reader, { body: { markdown: 'x' } }), 403);
    expectError(await api.request('GET', base(), { token: outsider.token }), 404);
  });

  it('still takes comments on an archived change request (discussion outlives the proposal)', async () => {
    const archived = await buildChangeRequest(api.em(), space, editor);
    await api.em().nativeUpdate(ChangeRequest, { id: archived.id }, { status: 'archived' });
    await posted(commenter, undefined, archived);
  });
});
