import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEditable, ChangeRequestClosedError, commitOnChangeRequest } from '../../src/domain/change-requests/commit-change-request.ts';
import { loadChangeRequest } from '../../src/domain/change-requests/load-change-request.ts';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import { specsOf } from '../../src/domain/content/current-pages.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let editor: Caller;
let space: Space;
let org: Organization;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const cast = await buildCast(em, ['edit'] as const);
  org = cast.org;
  admin = cast.admin;
  editor = cast.members.edit;
  space = await buildSpace(em, cast.org, admin);
  await buildContent(em, space, [{ kind: 'document', title: 'Home', markdown: '# Home\n' }]);
});
afterAll(() => api.close());

describe('change requests: numbering and revision chain', () => {
  it('numbers change requests 1, 2, 3 … per space, each once, when opened at the same time', async () => {
    const opened = await Promise.all(Array.from({ length: 20 }, () => buildChangeRequest(api.em(), space, editor)));
    const numbers = opened.map((c) => c.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const other = await buildSpace(api.em(), org, admin);
    expect((await buildChangeRequest(api.em(), other, editor)).number).toBe(1);
  });

  it('starts at the space’s revision and chains its own revisions without moving main', async () => {
    const em = api.em();
    const cr = await buildChangeRequest(em, space, editor);
    expect(cr.revision).toBe(space.revision);
    expect(cr.revisionInitial).toBe(space.revision);
    expect(cr.revisionMergedAncestor).toBe(space.revision);
    const pages = [...(await specsOf(em, await em.findOneOrFail(Revision, { id: cr.revision }))), { kind: 'document' as const, title: 'New', markdown: 'x' }];
    const rev = await buildChangeRequestContent(em, space, cr, editor, pages);
    expect(cr.revision).toBe(rev.id);
    const stored = await api.em().findOneOrFail(Revision, { id: rev.id });
    expect(stored).toMatchObject({ changeRequest: cr.id, parents: [space.revision] });
    const mainNow = (await api.em().execute<{ revision: string }[]>('select revision from spaces where id = ?', [space.id]))[0]!.revision;
    expect(mainNow).toBe(space.revision);
  });

  it('keeps every one of 10 concurrent commits to one change request (each builds on the last)', async () => {
    const cr = await buildChangeRequest(api.em(), space, editor);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (async () => {
          const em = api.em();
          await commitOnChangeRequest(em, space, cr, async (tx, head) => ({ pages: [...(await specsOf(tx, head)), { kind: 'document', title: `P${i}`, markdown: `${i}` }] }), {
            contributor: editor.user.id,
          });
        })(),
      ),
    );
    const em = api.em();
    const fresh = await em.findOneOrFail(ChangeRequest, { id: cr.id });
    const titles = (await specsOf(em, await em.findOneOrFail(Revision, { id: fresh.revision }))).map((p) => p.title);
    for (let i = 0; i < 10; i++) expect(titles).toContain(`P${i}`);
    const contributors = await em.execute('select user_id from change_request_contributors where change_request_id = ?', [cr.id]);
    expect(contributors).toHaveLength(1);
  });

  it('refuses content on archived and merged change requests', () => {
    expect(() => assertEditable('archived')).toThrow(ChangeRequestClosedError);
    expect(() => assertEditable('merged')).toThrow(ChangeRequestClosedError);
    expect(() => assertEditable('open')).not.toThrow();
  });

  it('loads by id or by number, only within its space', async () => {
    const em = api.em();
    const cr = await buildChangeRequest(em, space, editor);
    const actor = { kind: 'user' as const, user: editor.user };
    expect((await loadChangeRequest(api.em(), actor, space.id, String(cr.number))).changeRequest.id).toBe(cr.id);
    expect((await loadChangeRequest(api.em(), actor, space.id, cr.id)).crView.creator).toBe(true);
    await expect(loadChangeRequest(api.em(), { kind: 'user', user: admin.user }, space.id, '99999')).rejects.toThrow(/not found/);
  });
});
