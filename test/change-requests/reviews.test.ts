import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildContent, buildMember, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let author: Caller;
let reviewer: Caller;
let commenter: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'review', 'comment', 'guest'] as const);
  ({ org, admin, outsider } = cast);
  ({ edit: author, review: reviewer, comment: commenter, guest } = cast.members);
  space = await buildSpace(api.em(), org, admin);
  await buildContent(api.em(), space, [{ id: 'reviewHome0000000000', kind: 'document', title: 'Home', markdown: 'home' }]);
});
afterAll(() => api.close());

const crPath = (cr: ChangeRequest, rest: string) => `/v1/spaces/${space.id}/change-requests/${cr.id}${rest}`;
const reviewsOf = async (cr: ChangeRequest) => Number((await api.em().execute<{ n: string }[]>('select count(*) as n from change_request_reviews where change_request_id = ?', [cr.id]))[0]!.n);
/** How many SQL statements the ORM ran while `run` was under way (tests in a file run one at a time). */
async function queriesOf(run: () => Promise<unknown>): Promise<number> {
  const logger = api.rt.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let count = 0;
  logger.logQuery = (context) => {
    count++;
    original(context);
  };
  try {
    await run();
  } finally {
    logger.logQuery = original;
  }
  return count;
}
const requestedOf = async (cr: ChangeRequest) =>
  (await api.em().execute<{ user_id: string }[]>('select user_id from change_request_requested_reviewers where change_request_id = ? order by user_id', [cr.id])).map((r) => r.user_id);

describe('submitting reviews', () => {
  it('records a review on the current revision (201 + Location) and marks it outdated once the change request moves on', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const res = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved', comment: { markdown: 'Looks good' } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews');
    expect(res.body).toMatchObject({ object: 'change-request-review', status: 'approved', outdated: false, revision: cr.revision, reviewer: { id: reviewer.user.id } });
    expect(res.body).not.toHaveProperty('requestedBy');
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body.urls.location).toBe(`http://vellum.test/v1/spaces/${space.id}/change-requests/${cr.id}/reviews/${res.body.id}`);

    const edited = await api.request('POST', crPath(cr, '/content/pages'), { token: author.token, body: { title: 'More' } });
    expect(edited.status).toBe(201);
    const again = await api.request('GET', crPath(cr, `/reviews/${res.body.id}`), { token: commenter.token });
    expectPublishedShape(again, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}');
    expect(again.body).toMatchObject({ id: res.body.id, outdated: true });
    const changes = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'changes-requested' } });
    expect(changes.body).toMatchObject({ status: 'changes-requested', outdated: false });

    const list = await api.request('GET', crPath(cr, '/reviews'), { token: commenter.token });
    expectPublishedShape(list, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews');
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([changes.body.id, res.body.id]);
    const outdated = await api.request('GET', crPath(cr, '/reviews?outdated=true'), { token: commenter.token });
    expect(outdated.body.items.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
    const current = await api.request('GET', crPath(cr, '/reviews?outdated=false'), { token: commenter.token });
    expect(current.body.items.map((r: { id: string }) => r.id)).toEqual([changes.body.id]);
  });

  it('names who asked the reviewer', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    expect((await api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users: [reviewer.user.id] } })).status).toBe(200);
    const res = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved', comment: { document: { object: 'document', nodes: [] } } } });
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews');
    expect(res.body.requestedBy).toMatchObject({ object: 'user', id: author.user.id });
  });

  it('keeps all of 20 reviews submitted at once, and pages through them', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const reviewers = await Promise.all(Array.from({ length: 20 }, () => buildMember(api.em(), org, 'review')));
    const results = await Promise.all(reviewers.map((r, i) => api.request('POST', crPath(cr, '/reviews'), { token: r.token, body: { status: i % 2 ? 'approved' : 'changes-requested' } })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await reviewsOf(cr)).toBe(20);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await api.request('GET', crPath(cr, `/reviews?limit=7${page ? `&page=${page}` : ''}`), { token: admin.token });
      expect(res.body.count).toBe(20);
      seen.push(...res.body.items.map((r: { id: string }) => r.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen.sort()).toEqual(results.map((r) => r.body.id).sort());
  });

  it('refuses the author (403), roles below review (403), bad input (400) and closed change requests (409), recording nothing', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const submit = (token: string, body: unknown) => api.request('POST', crPath(cr, '/reviews'), { token, body });
    expectError(await submit(author.token, { status: 'approved' }), 403, /author/);
    expectError(await submit(commenter.token, { status: 'approved' }), 403);
    expectError(await submit(reviewer.token, { status: 'rejected' }), 400, /status/);
    expectError(await submit(reviewer.token, { status: 'approved', comment: { html: '<b>' } }), 400, /comment/);
    expectError(await submit(reviewer.token, {}), 400, /status/);
    expectError(await submit(outsider.token, { status: 'approved' }), 404);
    expectError(await submit(guest.token, { status: 'approved' }), 404);
    expectError(await api.request('POST', `/v1/spaces/${space.id}/change-requests/987654/reviews`, { token: reviewer.token, body: { status: 'approved' } }), 404);
    await api.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    expectError(await submit(reviewer.token, { status: 'approved' }), 409, /merged/);
    expect(await reviewsOf(cr)).toBe(0);
  });

  it('answers 404 for an unknown review, one of another change request, and to other organizations', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const other = await buildChangeRequest(api.em(), space, author);
    const review = (await api.request('POST', crPath(other, '/reviews'), { token: reviewer.token, body: { status: 'approved' } })).body;
    expectError(await api.request('GET', crPath(cr, `/reviews/${review.id}`), { token: admin.token }), 404);
    expectError(await api.request('GET', crPath(cr, '/reviews/unknownReview0000000'), { token: admin.token }), 404);
    expectError(await api.request('GET', crPath(other, `/reviews/${review.id}`), { token: outsider.token }), 404);
    expectError(await api.request('GET', crPath(other, '/reviews'), { token: outsider.token }), 404);
    expectError(await api.request('GET', crPath(other, '/reviews?outdated=maybe'), { token: admin.token }), 400);
  });
});

describe('requested reviewers', () => {
  it('asks members who can read the space, renews a repeated request, and sets subject and description', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const users = [reviewer.user.id, commenter.user.id];
    const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };
    const res = await api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users, subject: 'Please look', description } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPublishedShape(res, 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers');
    expect(res.body.users.map((u: { user: { id: string } }) => u.user.id)).toEqual(users);
    expect(res.body.users[0]).toMatchObject({ object: 'change-request-requested-reviewer', kind: 'user', revision: cr.revision, requestedBy: { id: author.user.id } });
    const fresh = await api.em().findOneOrFail(ChangeRequest, { id: cr.id });
    expect(fresh).toMatchObject({ subject: 'Please look', description });

    const again = await api.request('POST', crPath(cr, '/requested-reviewers'), { token: admin.token, body: { users: [reviewer.user.id, reviewer.user.id] } });
    expect(again.status).toBe(200);
    expect(again.body.users).toHaveLength(1);
    expect(again.body.users[0].requestedBy.id).toBe(admin.user.id);
    expect(await requestedOf(cr)).toEqual([...users].sort());

    const list = await api.request('GET', crPath(cr, '/requested-reviewers'), { token: guest.token });
    expect(list.status).toBe(404);
    const listed = await api.request('GET', crPath(cr, '/requested-reviewers?limit=1'), { token: commenter.token });
    expectPublishedShape(listed, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers');
    expect(listed.body).toMatchObject({ count: 2, next: { page: expect.any(String) } });
  });

  it('refuses users who are not members able to read the space, or the author (400), changing nothing', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    await api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users: [reviewer.user.id] } });
    const request = (users: unknown, token = author.token) => api.request('POST', crPath(cr, '/requested-reviewers'), { token, body: { users, subject: 'Changed?' } });
    expectError(await request([commenter.user.id, outsider.user.id]), 400, new RegExp(outsider.user.id));
    expectError(await request([guest.user.id]), 400, /read the space/);
    expectError(await request([author.user.id]), 400, /author/);
    expectError(await request(['noSuchUser0000000000']), 400);
    expectError(await request([]), 400);
    expectError(await request('everyone'), 400);
    expectError(await request([commenter.user.id], reviewer.token), 403);
    expectError(await request([commenter.user.id], outsider.token), 404);
    expect(await requestedOf(cr)).toEqual([reviewer.user.id]);
    expect((await api.em().findOneOrFail(ChangeRequest, { id: cr.id })).subject).toBe(cr.subject);
  });

  it('withdraws a request (205), then answers 204; only editors or the author may', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    await api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users: [reviewer.user.id] } });
    const remove = (token: string) => api.request('DELETE', crPath(cr, `/requested-reviewers/${reviewer.user.id}`), { token });
    expectError(await remove(reviewer.token), 403);
    expectError(await remove(outsider.token), 404);
    const res = await remove(author.token);
    expect(res.status).toBe(205);
    expectPublishedShape(res, 'DELETE', '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}');
    expect((await remove(admin.token)).status).toBe(204);
    expect(await requestedOf(cr)).toEqual([]);
  });

  it('ends exact when requests and withdrawals arrive at once', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    await api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users: [commenter.user.id] } });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => api.request('POST', crPath(cr, '/requested-reviewers'), { token: author.token, body: { users: [reviewer.user.id] } })),
      ...Array.from({ length: 10 }, () => api.request('DELETE', crPath(cr, `/requested-reviewers/${commenter.user.id}`), { token: author.token })),
    ]);
    expect(results.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.slice(10).map((r) => r.status).sort()).toEqual([...Array(9).fill(204), 205]);
    expect(await requestedOf(cr)).toEqual([reviewer.user.id]);
  });
});

describe('review comments', () => {
  const reviewPath = '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews';
  const commentsOf = async (cr: ChangeRequest) =>
    await api.em().execute<{ id: string; review_id: string | null; author_id: string }[]>('select id, review_id, author_id from comments where change_request_id = ? order by id', [cr.id]);
  const doc = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ship it', marks: [] }] }] }] };

  it('posts the comment as a thread of the change request by the reviewer, shown as the review’s comment, listed and counted', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const res = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved', comment: { document: doc } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectPublishedShape(res, 'POST', reviewPath);
    const comment = res.body.comment;
    expect(comment).toMatchObject({
      object: 'comment',
      status: 'open',
      postedBy: { id: reviewer.user.id },
      body: { document: doc },
      replies: 0,
      target: { space: space.id, changeRequest: cr.id, review: res.body.id, revision: cr.revision },
      permissions: { view: true, edit: true, delete: true, reply: true },
    });
    expect(comment.urls.location).toBe(`http://vellum.test/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.id}`);

    const got = await api.request('GET', crPath(cr, `/reviews/${res.body.id}`), { token: commenter.token });
    expectPublishedShape(got, 'GET', `${reviewPath}/{reviewId}`);
    // Another caller sees the same thread, with their own permissions.
    expect(got.body.comment).toMatchObject({ id: comment.id, body: { document: doc }, permissions: { view: true, edit: false, delete: false } });
    const asMarkdown = await api.request('GET', crPath(cr, `/reviews/${res.body.id}?format=markdown`), { token: commenter.token });
    expect(asMarkdown.body.comment.body).toEqual({ markdown: expect.stringContaining('Ship it') });

    const listed = await api.request('GET', crPath(cr, '/comments'), { token: commenter.token });
    expectPublishedShape(listed, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/comments');
    expect(listed.body.items.map((c: { id: string; target: { review?: string } }) => [c.id, c.target.review])).toEqual([[comment.id, res.body.id]]);
    const changeRequest = await api.request('GET', crPath(cr, ''), { token: commenter.token });
    expect(changeRequest.body.comments).toBe(1);

    // It is a thread like any other: replied to and resolved, which the review then shows.
    expect((await api.request('POST', crPath(cr, `/comments/${comment.id}/replies`), { token: author.token, body: { body: { markdown: 'Thanks' } } })).status).toBe(200);
    expect((await api.request('PUT', crPath(cr, `/comments/${comment.id}`), { token: author.token, body: { resolved: true } })).status).toBe(200);
    const after = await api.request('GET', crPath(cr, '/reviews'), { token: commenter.token });
    expectPublishedShape(after, 'GET', reviewPath);
    expect(after.body.items[0].comment).toMatchObject({ id: comment.id, status: 'resolved', replies: 1, resolvedBy: { id: author.user.id } });
    expect((await api.request('GET', crPath(cr, ''), { token: commenter.token })).body.comments).toBe(0);

    // Deleting the thread leaves the review without comment.
    expect((await api.request('DELETE', crPath(cr, `/comments/${comment.id}`), { token: reviewer.token })).status).toBe(205);
    const bare = await api.request('GET', crPath(cr, `/reviews/${res.body.id}`), { token: commenter.token });
    expect(bare.status).toBe(200);
    expect(bare.body).not.toHaveProperty('comment');
  });

  it('answers Markdown comments as written, and opens no thread for a review without comment or with an empty one', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const md = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'changes-requested', comment: { markdown: 'Fix *this*' } } });
    expectPublishedShape(md, 'POST', reviewPath);
    expect(md.body.comment.body).toEqual({ markdown: 'Fix *this*' });
    const none = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved' } });
    const empty = await api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved', comment: {} } });
    for (const res of [none, empty]) {
      expectPublishedShape(res, 'POST', reviewPath);
      expect(res.body).not.toHaveProperty('comment');
    }
    expect((await commentsOf(cr)).map((c) => c.review_id)).toEqual([md.body.id]);
    const list = await api.request('GET', crPath(cr, '/reviews'), { token: commenter.token });
    expect(list.body.items.map((r: { id: string; comment?: { id: string } }) => [r.id, r.comment?.id])).toEqual([
      [empty.body.id, undefined],
      [none.body.id, undefined],
      [md.body.id, md.body.comment.id],
    ]);
  });

  it('refuses a bad comment (400), writing neither the review nor a comment', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const submit = (comment: unknown) => api.request('POST', crPath(cr, '/reviews'), { token: reviewer.token, body: { status: 'approved', comment } });
    expectError(await submit({ document: { object: 'block', nodes: [] } }), 400, /comment/);
    expectError(await submit({ document: 'Ship it' }), 400, /comment/);
    expectError(await submit({ markdown: 'a', document: doc }), 400, /comment/);
    expectError(await submit({ markdown: 'x'.repeat(100_001) }), 400, /comment/);
    expectError(await submit('Ship it'), 400, /comment/);
    expect(await reviewsOf(cr)).toBe(0);
    expect(await commentsOf(cr)).toEqual([]);
  });

  it('keeps 20 reviews with comments submitted at once, each with its own thread by its reviewer', async () => {
    const cr = await buildChangeRequest(api.em(), space, author);
    const reviewers = await Promise.all(Array.from({ length: 20 }, () => buildMember(api.em(), org, 'review')));
    const results = await Promise.all(
      reviewers.map((r, i) => api.request('POST', crPath(cr, '/reviews'), { token: r.token, body: { status: 'approved', comment: { markdown: `Review ${i}` } } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await reviewsOf(cr)).toBe(20);
    const comments = await commentsOf(cr);
    expect(comments).toHaveLength(20);
    const byReview = new Map(comments.map((c) => [c.review_id, c]));
    results.forEach((res, i) => {
      expect(res.body.comment).toMatchObject({ body: { markdown: `Review ${i}` }, target: { review: res.body.id } });
      expect(byReview.get(res.body.id)).toEqual({ id: res.body.comment.id, review_id: res.body.id, author_id: reviewers[i]!.user.id });
    });
    expect((await api.request('GET', crPath(cr, ''), { token: admin.token })).body.comments).toBe(20);
    const list = await api.request('GET', crPath(cr, '/reviews?limit=20'), { token: admin.token });
    expectPublishedShape(list, 'GET', reviewPath);
    expect(list.body.items.every((r: { id: string; comment: { target: { review: string } } }) => r.comment.target.review === r.id)).toBe(true);

    // A page of reviews costs the same queries whether it holds 2 comments or 20 (they are read in batches).
    await api.request('POST', crPath(cr, `/comments/${results[0]!.body.comment.id}/replies`), { token: author.token, body: { body: { markdown: 'Noted' } } });
    const short = await queriesOf(() => api.request('GET', crPath(cr, '/reviews?limit=2'), { token: admin.token }));
    const full = await queriesOf(() => api.request('GET', crPath(cr, '/reviews?limit=20'), { token: admin.token }));
    expect(full).toBe(short);
  });
});
