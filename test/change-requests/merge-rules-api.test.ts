import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { ChangeRequestReview, type ReviewStatus } from '../../src/domain/entities/change-request-review.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { expectError } from '../support/assertions.ts';
import { changeRequestNow, commitOnMain, commitOnRequest, editLine, mainRevision } from '../support/change-request-content.ts';
import { buildCast, buildChangeRequest, buildContent, buildMember, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reviewer: Caller;
const page = newId();

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'review'] as const);
  ({ org, admin } = cast);
  editor = cast.members.edit;
  reviewer = cast.members.review;
});
afterAll(() => api.close());

async function scenario(mergeRules: unknown) {
  const em = api.em();
  const space = await buildSpace(em, org, admin);
  await buildContent(em, space, [{ id: page, kind: 'document', title: 'Page', markdown: Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') }]);
  const res = await api.request('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { mergeRules } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cr = await buildChangeRequest(em, space, editor);
  await commitOnRequest(em, space, cr, editLine(page, 1, 'proposed'));
  return { space, cr, em };
}

/** A review as the review operation records it (on the change request's head); each one later than the last. */
let reviewClock = Date.now();
async function submitReview(cr: ChangeRequest, who: Caller, status: ReviewStatus) {
  const em = api.em();
  const head = await changeRequestNow(em, cr.id);
  const createdAt = new Date((reviewClock = Math.max(reviewClock + 1, Date.now())));
  em.create(ChangeRequestReview, { changeRequest: cr.id, reviewer: who.user.id, status, revision: head.revision, comment: null, createdAt, updatedAt: createdAt });
  await em.flush();
}

const merge = (space: Space, cr: ChangeRequest, caller = editor) => api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: caller.token });
const dryRun = (space: Space, cr: ChangeRequest, caller = editor) => api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/mergeability`, { token: caller.token });

describe('merge rules at merge time', () => {
  it('refuses with 412 naming each unmet rule, changes nothing, and merges once they are met', async () => {
    const { space, cr } = await scenario({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_change_request_description' }] });
    const main = await mainRevision(api.em(), space);
    const refused = await merge(space, cr);
    expectError(refused, 412, /require_at_least_one_review.*require_change_request_description/);
    expect(await mainRevision(api.em(), space)).toBe(main);
    expect((await changeRequestNow(api.em(), cr.id)).status).toBe('open');
    expect((await dryRun(space, cr)).body).toEqual({
      mergeable: false,
      outdated: false,
      conflicts: [],
      unmetRules: [
        { rule: 'require_at_least_one_review', message: expect.any(String) },
        { rule: 'require_change_request_description', message: expect.any(String) },
      ],
      bypass: false,
    });
    await submitReview(cr, reviewer, 'approved');
    await api.em().execute(`update change_requests set description = ? where id = ?`, [
      JSON.stringify({ object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Why: typos' }] }] }] }),
      cr.id,
    ]);
    expect((await dryRun(space, cr)).body).toMatchObject({ mergeable: true, unmetRules: [] });
    expect((await merge(space, cr)).body.result).toBe('merge');
  });

  it('inherits the organization’s rules', async () => {
    const rules = { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] };
    const em = api.em();
    const own = await buildCast(em, [] as const);
    expect((await api.request('PATCH', `/v1/orgs/${own.org.id}`, { token: own.admin.token, body: { mergeRules: rules } })).status).toBe(200);
    const space = await buildSpace(em, own.org, own.admin);
    await buildContent(em, space, [{ kind: 'document', title: 'Home' }]);
    const cr = await buildChangeRequest(em, space, own.admin, { subject: '' });
    expectError(await merge(space, cr, own.admin), 412, /require_change_request_subject/);
    await em.execute(`update change_requests set subject = 'Now with a subject' where id = ?`, [cr.id]);
    expect((await merge(space, cr, own.admin)).body.result).toBe('merge');
  });

  it('counts approvals across updates from main, not across edits', async () => {
    const { space, cr, em } = await scenario({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.user.id] }] });
    await submitReview(cr, reviewer, 'approved');
    // An edit after the approval: the reviewer has not seen it.
    await commitOnRequest(em, space, cr, editLine(page, 2, 'sneaked in'));
    expectError(await merge(space, cr), 412, new RegExp(reviewer.user.id));
    await submitReview(cr, reviewer, 'approved');
    // Main moves and the change request takes it in: the approval still stands.
    await commitOnMain(em, space, editLine(page, 8, 'from main'));
    expect((await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: editor.token })).body.result).toBe('update');
    expect((await merge(space, cr)).body.result).toBe('merge');
  });

  it('require_all_reviews_approved: a request for changes or a silent requested reviewer blocks', async () => {
    const { space, cr, em } = await scenario({ type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] });
    const second = await buildMember(em, org, 'review');
    await submitReview(cr, reviewer, 'changes-requested');
    expectError(await merge(space, cr), 412, /require_all_reviews_approved/);
    await submitReview(cr, reviewer, 'approved');
    const asked = await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, { token: editor.token, body: { users: [second.user.id] } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expectError(await merge(space, cr), 412, new RegExp(second.user.id));
    await submitReview(cr, second, 'approved');
    expect((await merge(space, cr)).body.result).toBe('merge');
  });

  it('require_up_to_date_change_request: an outdated change request merges after an update', async () => {
    const { space, cr, em } = await scenario({ type: 'rules', rules: [{ rule: 'require_up_to_date_change_request' }] });
    await commitOnMain(em, space, editLine(page, 9, 'main moved'));
    expectError(await merge(space, cr), 412, /require_up_to_date_change_request/);
    expect((await dryRun(space, cr)).body).toMatchObject({ mergeable: false, outdated: true });
    await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: editor.token });
    expect((await merge(space, cr)).body.result).toBe('merge');
  });

  it('allow_bypass: a listed user merges despite unmet rules (agent review can never be met here)', async () => {
    const { space, cr } = await scenario({ type: 'rules', rules: [{ rule: 'require_agent_review' }, { rule: 'allow_bypass', users: [admin.user.id] }] });
    expectError(await merge(space, cr, editor), 412, /require_agent_review/);
    expect((await dryRun(space, cr, admin)).body).toMatchObject({ mergeable: true, bypass: true, unmetRules: [{ rule: 'require_agent_review' }] });
    expect((await merge(space, cr, admin)).body.result).toBe('merge');
  });

  it('custom: judged by its expression; one that does not parse is refused when saved (400)', async () => {
    const { space, cr } = await scenario({ type: 'rules', rules: [{ rule: 'custom', expression: 'actor.id != changeRequest.createdBy.id' }] });
    // The editor opened it: the rule keeps authors from merging their own change requests.
    expectError(await merge(space, cr, editor), 412, /custom/);
    const bad = await api.request('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'actor.id = 1' }] } } });
    expectError(bad, 400, /expression/);
    expect((await merge(space, cr, admin)).body.result).toBe('merge');
  });
});
