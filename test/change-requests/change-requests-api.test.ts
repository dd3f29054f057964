import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectClientError, expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildContent, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reviewer: Caller;
let commenter: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;
let cluster: IssueCluster;
let foreignCluster: IssueCluster;

const doc = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };
const crPath = (id: string | number, s: Space = space) => `/v1/spaces/${s.id}/change-requests/${id}`;
const rowOf = (id: string) => api.em().findOneOrFail(ChangeRequest, { id });
const countsOf = async (s: Space) => {
  const body = (await api.request('GET', `/v1/spaces/${s.id}`, { token: admin.token })).body;
  return { changeRequests: body.changeRequests, changeRequestsOpen: body.changeRequestsOpen, changeRequestsDraft: body.changeRequestsDraft };
};

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit', 'review', 'comment', 'read', 'guest'] as const);
  ({ org, admin, outsider } = cast);
  ({ edit: editor, review: reviewer, comment: commenter, read: reader, guest } = cast.members);
  space = await buildSpace(em, org, admin);
  await buildContent(em, space, [{ kind: 'document', title: 'Home', markdown: '# Home\n' }]);
  cluster = em.create(IssueCluster, { organization: org, label: 'Login', summary: 'Cannot log in', icon: 'key' });
  const other = await buildOrg(em);
  foreignCluster = em.create(IssueCluster, { organization: other.org, label: 'Other', summary: 'Elsewhere', icon: 'key' });
  await em.flush();
});
afterAll(() => api.close());

describe('createChangeRequest', () => {
  it('opens a draft numbered next in the space with an empty body, as GitBook clients send it (201 + Location)', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const res = await api.client(editor.token).spaces.createChangeRequest(s.id, {});
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests');
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ object: 'change-request', number: 1, status: 'draft', subject: '', space: s.id, revision: s.revision, revisionInitial: s.revision, outdated: false, comments: 0 });
    expect(res.data.createdBy.id).toBe(editor.user.id);
    expect(res.headers.get('location')).toBe(res.data.urls.location);
    expect(res.data.urls.location).toBe(`http://vellum.test/v1/spaces/${s.id}/change-requests/${res.data.id}`);
    const bare = await api.request('POST', `/v1/spaces/${s.id}/change-requests`, { token: editor.token });
    expect(bare.status).toBe(201);
    expect(bare.body.number).toBe(2);
  });

  it('takes a subject, description, status and issue cluster (Vellum extras)', async () => {
    const body = { subject: 'Fix login docs', description: doc, status: 'open', conversationsIssuesCluster: cluster.id, agentTaskId: 'task-1' };
    const res = await api.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: editor.token, body });
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests');
    expect(res.body).toMatchObject({ subject: 'Fix login docs', description: doc, status: 'open', conversationsIssuesCluster: cluster.id });
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const s = await buildSpace(api.em(), org, admin);
    for (const body of [{ subject: 'x'.repeat(101) }, { status: 'merged' }, { status: 'archived' }, { description: { nodes: 'no' } }, { conversationsIssuesCluster: foreignCluster.id }, { conversationsIssuesCluster: 'nope' }, [1]]) {
      expectError(await api.request('POST', `/v1/spaces/${s.id}/change-requests`, { token: editor.token, body }), 400);
    }
    expect(await countsOf(s)).toEqual({ changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    // The refused openings took no number either: the next is 1.
    expect((await api.request('POST', `/v1/spaces/${s.id}/change-requests`, { token: editor.token, body: {} })).body.number).toBe(1);
  });

  it('needs role edit on the space: review is refused (403), guests and outsiders see no space (404)', async () => {
    const s = await buildSpace(api.em(), org, admin);
    await expectClientError(api.client(reviewer.token).spaces.createChangeRequest(s.id, {}), 403);
    await expectClientError(api.client(guest.token).spaces.createChangeRequest(s.id, {}), 404);
    await expectClientError(api.client(outsider.token).spaces.createChangeRequest(s.id, {}), 404);
    await expectClientError(api.client(editor.token).spaces.createChangeRequest('noSuchSpace000000000', {}), 404);
    expect((await countsOf(s)).changeRequests).toBe(0);
  });
});

describe('getChangeRequestById', () => {
  it('reads a change request by id and by number', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor, { description: doc });
    const byId = await api.client(reader.token).spaces.getChangeRequestById(space.id, cr.id);
    expectPublishedShape(byId, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}');
    const byNumber = await api.client(reader.token).spaces.getChangeRequestById(space.id, String(cr.number));
    expect(byNumber.data).toEqual(byId.data);
    expect(byId.data).toMatchObject({ id: cr.id, number: cr.number, status: 'open', description: doc, urls: { app: `http://vellum.test/s/${space.id}/~/changes/${cr.number}` } });
  });

  it('answers 404 for unknown ids and numbers, another space’s change request, guests and outsiders', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor);
    const other = await buildSpace(api.em(), org, admin);
    expectError(await api.request('GET', crPath('noSuchChangeRequest0'), { token: admin.token }), 404);
    expectError(await api.request('GET', crPath(99999), { token: admin.token }), 404);
    expectError(await api.request('GET', crPath(cr.id, other), { token: admin.token }), 404);
    expectError(await api.request('GET', crPath(cr.id), { token: guest.token }), 404);
    const res = await api.request('GET', crPath(cr.id), { token: outsider.token });
    expectError(res, 404);
    expect(JSON.stringify(res.body)).not.toContain(cr.subject);
    expectError(await api.request('GET', crPath('x'.repeat(101)), { token: admin.token }), 400);
  });

  it('is outdated while main has moved past its base, and not once archived', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const cr = await buildChangeRequest(api.em(), s, editor);
    expect((await api.request('GET', crPath(cr.id, s), { token: admin.token })).body.outdated).toBe(false);
    await buildContent(api.em(), s, [{ kind: 'document', title: 'Moved on' }]);
    expect((await api.request('GET', crPath(cr.id, s), { token: admin.token })).body.outdated).toBe(true);
    await api.request('PATCH', crPath(cr.id, s), { token: admin.token, body: { status: 'archived' } });
    expect((await api.request('GET', crPath(cr.id, s), { token: admin.token })).body.outdated).toBe(false);
  });
});

describe('updateChangeRequestById', () => {
  it('changes subject, description and status; archived reopens; cluster links and unlinks', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor, { status: 'draft' });
    const res = await api.client(editor.token).spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Renamed', description: doc as never, status: 'open' as never });
    expectPublishedShape(res, 'PATCH', '/spaces/{spaceId}/change-requests/{changeRequestId}');
    expect(res.data).toMatchObject({ subject: 'Renamed', description: doc, status: 'open' });
    expect(Date.parse(res.data.updatedAt)).toBeGreaterThan(cr.updatedAt.getTime() - 1);
    for (const status of ['archived', 'draft', 'archived', 'open'] as const) {
      expect((await api.request('PATCH', crPath(cr.number), { token: editor.token, body: { status } })).body.status).toBe(status);
    }
    const linked = await api.request('PATCH', crPath(cr.id), { token: editor.token, body: { conversationsIssuesCluster: cluster.id } });
    expect(linked.body.conversationsIssuesCluster).toBe(cluster.id);
    const unlinked = await api.request('PATCH', crPath(cr.id), { token: editor.token, body: { conversationsIssuesCluster: null, description: null } });
    expect(unlinked.body).not.toHaveProperty('conversationsIssuesCluster');
    expect(unlinked.body).not.toHaveProperty('description');
    expect((await rowOf(cr.id)).cluster).toBeNull();
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor, { subject: 'Keep', cluster });
    const before = (await api.request('GET', crPath(cr.id), { token: admin.token })).body;
    for (const body of [{ subject: 'x'.repeat(101) }, { status: 'merged' }, { status: 'closed' }, { subject: 7 }, { conversationsIssuesCluster: foreignCluster.id }, { conversationsIssuesCluster: 'nope', subject: 'Changed' }]) {
      expectError(await api.request('PATCH', crPath(cr.id), { token: editor.token, body }), 400);
    }
    expect((await api.request('GET', crPath(cr.id), { token: admin.token })).body).toEqual(before);
  });

  it('never changes the status of a merged change request (409), though its subject may change', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor);
    await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged', revisionMerged: space.revision });
    for (const status of ['open', 'draft', 'archived']) expectError(await api.request('PATCH', crPath(cr.id), { token: editor.token, body: { status } }), 409);
    expect((await rowOf(cr.id)).status).toBe('merged');
    const renamed = await api.request('PATCH', crPath(cr.id), { token: editor.token, body: { subject: 'Merged, renamed' } });
    expect(renamed.body).toMatchObject({ status: 'merged', subject: 'Merged, renamed', revisionMerged: space.revision, outdated: false });
  });

  it('lets its creator with role comment edit it, not another commenter; reviewers (403), guests and outsiders (404) are refused', async () => {
    const own = await buildChangeRequest(api.em(), space, commenter);
    expect((await api.request('PATCH', crPath(own.id), { token: commenter.token, body: { subject: 'Mine' } })).status).toBe(200);
    const theirs = await buildChangeRequest(api.em(), space, editor, { subject: 'Theirs' });
    expectError(await api.request('PATCH', crPath(theirs.id), { token: commenter.token, body: { subject: 'No' } }), 403);
    expectError(await api.request('PATCH', crPath(theirs.id), { token: reviewer.token, body: { subject: 'No' } }), 403);
    expectError(await api.request('PATCH', crPath(theirs.id), { token: guest.token, body: { subject: 'No' } }), 404);
    expectError(await api.request('PATCH', crPath(theirs.id), { token: outsider.token, body: { subject: 'No' } }), 404);
    expectError(await api.request('PATCH', crPath('noSuchChangeRequest0'), { token: admin.token, body: { subject: 'No' } }), 404);
    expect((await rowOf(theirs.id)).subject).toBe('Theirs');
  });
});

describe('numbering and counts under concurrency', () => {
  it('numbers 20 concurrent creations 1..20 and counts them exactly', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.request('POST', `/v1/spaces/${s.id}/change-requests`, { token: editor.token, body: i % 2 ? { status: 'open' } : {} })),
    );
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(made.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await countsOf(s)).toEqual({ changeRequests: 20, changeRequestsOpen: 10, changeRequestsDraft: 10 });
    for (const r of made) expect((await api.request('GET', crPath(r.body.number, s), { token: reader.token })).body.id).toBe(r.body.id);
  });

  it('keeps counts exact after 20 concurrent status changes', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const crs = await Promise.all(Array.from({ length: 5 }, () => buildChangeRequest(api.em(), s, editor, { status: 'draft' })));
    const statuses = ['open', 'archived', 'draft', 'open'] as const;
    // Four PATCHes race on each of five change requests; each ends in one of the statuses sent.
    const answers = await Promise.all(
      crs.flatMap((cr) => statuses.map((status) => api.request('PATCH', crPath(cr.id, s), { token: editor.token, body: { status } }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const rows = await api.em().find(ChangeRequest, { space: s.id });
    const by = (st: string) => rows.filter((r) => r.status === st).length;
    expect(await countsOf(s)).toEqual({ changeRequests: 5, changeRequestsOpen: by('open'), changeRequestsDraft: by('draft') });
    expect(by('open') + by('draft') + by('archived')).toBe(5);
  });

  it('never undoes a merge that commits among 20 concurrent status PATCHes of the same change request', async () => {
    const s = await buildSpace(api.em(), org, admin);
    const cr = await buildChangeRequest(api.em(), s, editor);
    const patches = Array.from({ length: 20 }, (_, i) => api.request('PATCH', crPath(cr.id, s), { token: editor.token, body: { status: (['draft', 'open', 'archived'] as const)[i % 3] } }));
    // What the merge does to the row, racing with them.
    const merge = api.em().execute("update change_requests set status = 'merged', revision_merged = revision where id = ?", [cr.id]);
    const [answers] = await Promise.all([Promise.all(patches), merge]);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await rowOf(cr.id)).status).toBe('merged');
    expect(await countsOf(s)).toEqual({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });
});
