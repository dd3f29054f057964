import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMergePages, toPageSpecs, type MergePage } from '../../src/domain/content/merge/index.ts';
import { loadBodies, loadTree, flattenTree } from '../../src/domain/content/revision-reader.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import { changeRequestNow, commitOnMain, commitOnRequest, mainRevision } from '../support/change-request-content.ts';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { childIds, disjointCase, expectedPages, isSubsequence, sameLineCase } from '../support/merge-generators.ts';

/**
 * The merge properties of test/merge, end to end: random edits of every kind on both sides
 * of a 30-page tree are committed to main and to a change request, then merged (or updated)
 * through the API and read back from the database. Seeded: a failure names its seed.
 */
const CASES = 20;
/** Each case commits three revisions and merges: minutes-long on a loaded machine is still a pass. */
const TIMEOUT = 120_000;

let api: TestApi;
let org: Organization;
let admin: Caller;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), [] as const);
  ({ org, admin } = cast);
});
afterAll(() => api.close());

/** A space whose main is `base`, with a change request holding `theirs` and main moved to `ours`. */
async function committed(base: MergePage[], ours: MergePage[], theirs: MergePage[]) {
  const em = api.em();
  const space = await buildSpace(em, org, admin);
  await buildContent(em, space, toPageSpecs(base));
  const cr = await buildChangeRequest(em, space, admin);
  const crHead = await commitOnRequest(em, space, cr, () => toPageSpecs(theirs));
  const mainHead = await commitOnMain(em, space, () => toPageSpecs(ours));
  return { space, cr, crHead, mainHead };
}

/** A revision's pages as the merge sees them, without the stored-only fields (slugs). */
async function readBack(revisionId: string) {
  const em = api.em();
  const revision = await em.findOneOrFail(Revision, { id: revisionId });
  const tree = await loadTree(em, revision.pages);
  const bodies = await loadBodies(em, flattenTree(tree).flatMap((p) => (p.node.bodyHash ? [p.node.bodyHash] : [])));
  return toMergePages(tree, (h) => bodies.get(h)!.markdown).map(({ fields, ...page }) => ({ ...page, fields: { kind: fields.kind, hidden: fields.hidden } }));
}

describe('merging random edits through the API', () => {
  it('loses no edit and makes none up (ours: main, theirs: the change request)', async () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const { base, ours, theirs, moved } = disjointCase(seed);
      const { space, cr, mainHead, crHead } = await committed(base, ours, theirs);
      const res = await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: admin.token });
      expect(res.body, `seed ${seed}`).toMatchObject({ result: 'merge' });
      const merged = await api.em().findOneOrFail(Revision, { id: res.body.revision });
      expect(merged.parents, `seed ${seed}`).toEqual([mainHead.id, crHead.id]);
      const got = new Map((await readBack(merged.id)).map((p) => [p.id, p]));
      const want = expectedPages(base, ours, theirs);
      expect([...got.keys()].sort(), `seed ${seed}: no page lost or added`).toEqual([...want.keys()].sort());
      for (const [id, page] of want) expect(got.get(id), `seed ${seed} page ${id}`).toEqual(page);
      const pages = [...got.values()];
      for (const parentId of [null, ...got.keys()]) {
        for (const [side, movedByOther] of [[ours, moved.t], [theirs, moved.o]] as const) {
          const kept = childIds(side, parentId).filter((id) => got.get(id)?.parentId === parentId && !movedByOther.has(id));
          expect(isSubsequence(kept, childIds(pages, parentId)), `seed ${seed} order under ${parentId}`).toBe(true);
        }
      }
    }
  }, TIMEOUT);

  it('answers conflicts exactly when both sides change the same line, and commits nothing', async () => {
    let checked = 0;
    for (let seed = 1; checked < CASES / 2 && seed <= CASES * 2; seed++) {
      const found = sameLineCase(seed);
      if (!found) continue;
      const { base, ours, theirs, target, change } = found;
      checked++;
      const { space, cr, crHead, mainHead } = await committed(base, change(ours, 'main says this'), change(theirs, 'the change request says that'));
      const update = await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: admin.token });
      expect(update.body, `seed ${seed}`).toEqual({ result: 'conflicts', revision: crHead.id, conflicts: [{ pageId: target, kind: 'content', details: expect.any(String) }] });
      const merge = await api.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: admin.token });
      expect(merge.body.conflicts, `seed ${seed}`).toEqual([{ pageId: target, kind: 'content', details: expect.any(String) }]);
      expect(await mainRevision(api.em(), space), `seed ${seed}`).toBe(mainHead.id);
      expect(await changeRequestNow(api.em(), cr.id), `seed ${seed}`).toMatchObject({ revision: crHead.id, status: 'open' });
    }
    expect(checked).toBe(CASES / 2);
  }, TIMEOUT);
});
