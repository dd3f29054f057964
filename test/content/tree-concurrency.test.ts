import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCollection, buildOrg, buildSpace } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function parentOf(table: 'collections' | 'spaces', id: string): Promise<string | null> {
  const rows = await api.em().execute<Array<{ parent_id: string | null }>>(`select parent_id from ${table} where id = ?`, [id]);
  return rows[0]?.parent_id ?? null;
}

describe('collection cycles', () => {
  it('two opposite moves at once never make a cycle: one is refused (20 rounds)', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    for (let round = 0; round < 20; round++) {
      const a = await buildCollection(em, org, owner);
      const b = await buildCollection(em, org, owner);
      const move = (id: string, parent: string) => api.request('POST', `/v1/collections/${id}/move`, { token: owner.token, body: { parent } });
      const [ab, ba] = await Promise.all([move(a.id, b.id), move(b.id, a.id)]);
      expect([ab.status, ba.status].sort(), `round ${round}`).toEqual([200, 400]);
      const [pa, pb] = await Promise.all([parentOf('collections', a.id), parentOf('collections', b.id)]);
      expect(pa === b.id && pb === a.id, `round ${round}: cycle`).toBe(false);
      expect(pa === b.id || pb === a.id).toBe(true);
    }
  });

  it('a cycle already in the database does not hang or fail reads, lists and deletes', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    const a = await buildCollection(em, org, owner, { title: 'A' });
    const b = await buildCollection(em, org, owner, { title: 'B', parent: a });
    const inside = await buildSpace(em, org, owner, { parent: b });
    await em.execute('update collections set parent_id = ? where id = ?', [b.id, a.id]);
    const get = (path: string) => api.request('GET', path, { token: owner.token });
    expect((await get(`/v1/collections/${a.id}`)).status).toBe(200);
    expect((await get(`/v1/spaces/${inside.id}`)).status).toBe(200);
    expect((await get(`/v1/orgs/${org.id}/collections`)).status).toBe(200);
    expect((await get(`/v1/orgs/${org.id}/spaces`)).status).toBe(200);
    expect((await get(`/v1/collections/${b.id}/spaces`)).status).toBe(200);
    const move = await api.request('POST', `/v1/collections/${a.id}/move`, { token: owner.token, body: { parent: b.id } });
    expect(move.status).toBeLessThan(500);
    const deleted = await api.request('DELETE', `/v1/collections/${a.id}`, { token: owner.token });
    expect([204, 205]).toContain(deleted.status);
    expect((await get(`/v1/collections/${b.id}`)).status).toBe(404);
    expect((await api.request('GET', `/v1/spaces/${inside.id}`, { token: owner.token })).body.deletedAt).toBeDefined();
  });
});

describe('positions under concurrency', () => {
  it('50 spaces created at once in one collection get 50 distinct positions', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    const c = await buildCollection(em, org, owner);
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.request('POST', `/v1/orgs/${org.id}/spaces`, { token: owner.token, body: { title: `S${i}`, parent: c.id } })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
    const rows = await em.execute<Array<{ position: string }>>('select position from spaces where parent_id = ?', [c.id]);
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.position)).size).toBe(50);
  });

  it('20 moves at once to the same place get distinct positions', async () => {
    const em = api.em();
    const { org, owner } = await buildOrg(em);
    const c = await buildCollection(em, org, owner);
    const anchor = await buildSpace(em, org, owner, { parent: c });
    const tail = await buildSpace(em, org, owner, { parent: c });
    const movers = [];
    for (let i = 0; i < 20; i++) movers.push(await buildSpace(em, org, owner));
    const moved = await Promise.all(
      movers.map((s) =>
        api.request('POST', `/v1/spaces/${s.id}/move`, { token: owner.token, body: { parent: c.id, position: { after: { type: 'space', space: anchor.id } } } }),
      ),
    );
    expect(moved.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await em.execute<Array<{ id: string; position: string }>>('select id, position from spaces where parent_id = ? order by position collate "C"', [c.id]);
    expect(rows).toHaveLength(22);
    expect(new Set(rows.map((r) => r.position)).size).toBe(22);
    expect(rows[0]!.id).toBe(anchor.id);
    expect(rows.at(-1)!.id).toBe(tail.id);
  });
});
