import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitRevision } from '../../src/domain/content/commit-revision.ts';
import { RevisionConflictError } from '../../src/domain/content/commit-revision.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;

beforeAll(async () => {
  api = await startTestApi();
  ({ org, admin, members: { edit: editor } } = await buildCast(api.em(), ['edit'] as const));
});
afterAll(() => api.close());

describe('content commits under concurrency', () => {
  it('20 templates applied at once to one space keep every page (or answer 409 and leave nothing)', async () => {
    const em = api.em();
    const space = await buildSpace(em, org, admin);
    await buildContent(em, space, [{ kind: 'document', title: 'Existing', markdown: 'kept' }]);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: editor.token, body: { id: 'getting-started' } })),
    );
    const applied = replies.filter((r) => r.status === 204).length;
    for (const refused of replies.filter((r) => r.status !== 204)) expectError(refused, 409);
    expect(applied).toBeGreaterThan(0);
    const { data } = await api.client(editor.token).spaces.listPages(space.id);
    // getting-started adds three pages; each applied template's three are all there.
    expect(data.pages).toHaveLength(1 + 3 * applied);
    expect(data.pages.filter((p) => p.title === 'Introduction')).toHaveLength(applied);
    // One revision per applied template, each on the one before: a chain, not siblings.
    const revisions = await api.em().find(Revision, { space: space.id }, { orderBy: { createdAt: 'asc' } });
    const parents = new Set(revisions.flatMap((r) => r.parents));
    expect(revisions.filter((r) => !parents.has(r.id)).map((r) => r.id)).toEqual([(await api.em().findOneOrFail(Space, space.id)).revision]);
  });

  it('refuses a commit built on a revision that is no longer current, changing nothing', async () => {
    const em = api.em();
    const space = await buildSpace(em, org, admin);
    const first = space.revision;
    await buildContent(em, space, [{ kind: 'document', title: 'Newer', markdown: 'x' }]);
    const current = space.revision;
    const stale = commitRevision(api.em(), await api.em().findOneOrFail(Space, space.id), { parent: first, pages: [] }, () => undefined);
    await expect(stale).rejects.toBeInstanceOf(RevisionConflictError);
    expect((await api.em().findOneOrFail(Space, space.id)).revision).toBe(current);
    expect(await api.em().count(Revision, { space: space.id })).toBe(2);
  });
});
