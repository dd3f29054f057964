import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/domain/content/templates.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { addPage, allPages, changeRequestNow, commitOnMain, commitOnRequest, editLine, findPage, mainPages, pagesOf } from '../support/change-request-content.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit'] as const);
  ({ org, admin } = cast);
  editor = cast.members.edit;
});
afterAll(() => api.close());

const page = newId();
async function scenario() {
  const em = api.em();
  const space = await buildSpace(em, org, admin);
  await buildContent(em, space, [{ id: page, kind: 'document', title: 'Page', markdown: Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') }]);
  const cr = await buildChangeRequest(em, space, editor);
  await commitOnRequest(em, space, cr, editLine(page, 1, 'proposed'));
  return { space, cr, em };
}
const call = (spaceId: string, crId: string, op: string) => api.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/${op}`, { token: editor.token });
const countRows = async (sql: string, params: unknown[]) => Number((await api.em().execute<{ n: string }[]>(sql, params))[0]!.n);

describe('merge and update under concurrency', () => {
  it('10 merges of one change request at once: one merges, the others get 409', async () => {
    const { space, cr } = await scenario();
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(space.id, cr.id, 'merge')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(answers.find((a) => a.status === 200)!.body.result).toBe('merge');
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error.message).toMatch(/merged/);
    expect(await countRows('select count(*) as n from revisions where merged_from = ?', [cr.id])).toBe(1);
    expect((await changeRequestNow(api.em(), cr.id)).status).toBe('merged');
  });

  it('a merge racing template applications on main loses neither', async () => {
    const { space, cr } = await scenario();
    const templateSize = allPages(TEMPLATES['knowledge-base'].pages()).length;
    const apply = () => api.request('POST', `/v1/spaces/${space.id}/content/template`, { token: editor.token, body: { id: 'knowledge-base' } });
    const answers = await Promise.all([apply(), apply(), call(space.id, cr.id, 'merge'), apply(), apply()]);
    expect(answers.map((a) => a.status)).toEqual([204, 204, 200, 204, 204]);
    expect(answers[2]!.body.result).toBe('merge');
    const pages = allPages(await mainPages(api.em(), space));
    expect(pages).toHaveLength(1 + 4 * templateSize);
    expect(findPage(pages, page)!.markdown!.split('\n')[1]).toBe('proposed');
  });

  it('an update racing commits to the change request loses none of them', async () => {
    const { space, cr, em } = await scenario();
    await commitOnMain(em, space, editLine(page, 8, 'from main'));
    const commits = Array.from({ length: 8 }, (_, i) => commitOnRequest(api.em(), space, cr, addPage({ kind: 'document', title: `Edit ${i}`, markdown: `${i}` })));
    const [update] = await Promise.all([call(space.id, cr.id, 'update'), ...commits]);
    expect(update.body.result).toBe('update');
    const head = await changeRequestNow(api.em(), cr.id);
    const pages = await pagesOf(api.em(), head.revision);
    expect(pages.map((p) => p.title).sort()).toEqual(['Page', ...Array.from({ length: 8 }, (_, i) => `Edit ${i}`)].sort());
    expect(findPage(pages, page)!.markdown!.split('\n').filter((l) => !l.startsWith('line'))).toEqual(['proposed', 'from main']);
  });

  it('20 updates of one outdated change request at once: one update revision, every answer names it', async () => {
    const { space, cr, em } = await scenario();
    await commitOnMain(em, space, editLine(page, 8, 'from main'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(space.id, cr.id, 'update')));
    expect(new Set(answers.map((a) => `${a.status} ${a.body.result} ${a.body.revision}`)).size).toBe(1);
    expect(answers[0]!.body.result).toBe('update');
    expect(await countRows(`select count(*) as n from revisions where change_request = ? and type = 'update'`, [cr.id])).toBe(1);
  });
});
