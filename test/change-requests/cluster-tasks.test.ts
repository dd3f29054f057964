import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { buildCast, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { expectPublishedShape } from '../support/published-schema.ts';

let api: TestApi;
let org: Organization;
let admin: Caller;
let editor: Caller;
let reader: Caller;
let space: Space;

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), ['edit', 'read'] as const);
  ({ org, admin } = cast);
  ({ edit: editor, read: reader } = cast.members);
  space = await buildSpace(api.em(), org, admin);
});
afterAll(() => api.close());

async function newCluster(label: string) {
  const em = api.em();
  const made = em.create(IssueCluster, { organization: org, label, summary: `About ${label}.`, icon: 'book', status: 'ready' });
  await em.flush();
  return made.id;
}
const open = (cluster: string, status: 'draft' | 'open' = 'draft') =>
  api.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: editor.token, body: { conversationsIssuesCluster: cluster, status } });
const patch = (id: string, body: unknown) => api.request('PATCH', `/v1/spaces/${space.id}/change-requests/${id}`, { token: editor.token, body });
const stats = async (cluster: string) => {
  const res = await api.request('GET', `/v1/orgs/${org.id}/conversations-clusters/${cluster}`, { token: reader.token });
  expect(res.status).toBe(200);
  const { tasksTotal, tasksBacklog, tasksStarted, tasksCompleted, tasksCancelled } = res.body.stats;
  return { tasksTotal, tasksBacklog, tasksStarted, tasksCompleted, tasksCancelled };
};
const tasks = (total: number, backlog: number, started: number, completed: number, cancelled: number) => ({
  tasksTotal: total,
  tasksBacklog: backlog,
  tasksStarted: started,
  tasksCompleted: completed,
  tasksCancelled: cancelled,
});

describe('issue-cluster tasks are its change requests', () => {
  it('counts draft as backlog, open as started, merged as completed, archived as cancelled, as they move', async () => {
    const cluster = await newCluster('Moving');
    expect(await stats(cluster)).toEqual(tasks(0, 0, 0, 0, 0));
    const a = (await open(cluster)).body.id as string;
    const b = (await open(cluster, 'open')).body.id as string;
    expect(await stats(cluster)).toEqual(tasks(2, 1, 1, 0, 0));
    await patch(a, { status: 'open' });
    expect(await stats(cluster)).toEqual(tasks(2, 0, 2, 0, 0));
    await patch(a, { status: 'archived' });
    expect(await stats(cluster)).toEqual(tasks(2, 0, 1, 0, 1));
    // As the merge will leave it.
    await api.em().nativeUpdate(ChangeRequest, { id: b }, { status: 'merged' });
    expect(await stats(cluster)).toEqual(tasks(2, 0, 0, 1, 1));
    await patch(a, { status: 'draft' });
    expect(await stats(cluster)).toEqual(tasks(2, 1, 0, 1, 0));
    // Unlinking, or linking elsewhere, moves the task.
    const other = await newCluster('Elsewhere');
    await patch(a, { conversationsIssuesCluster: other });
    expect(await stats(cluster)).toEqual(tasks(1, 0, 0, 1, 0));
    expect(await stats(other)).toEqual(tasks(1, 1, 0, 0, 0));
    await patch(a, { conversationsIssuesCluster: null });
    expect(await stats(other)).toEqual(tasks(0, 0, 0, 0, 0));
    const res = await api.request('GET', `/v1/orgs/${org.id}/conversations-clusters/${cluster}`, { token: reader.token });
    expectPublishedShape(res, 'GET', '/orgs/{organizationId}/conversations-clusters/{clusterId}');
  });

  it('does not count change requests of a space in the bin, and counts them again once it is restored', async () => {
    const cluster = await newCluster('Binned');
    const binned = await buildSpace(api.em(), org, admin);
    const opened = await api.request('POST', `/v1/spaces/${binned.id}/change-requests`, { token: admin.token, body: { conversationsIssuesCluster: cluster, status: 'open' } });
    expect(opened.status).toBe(201);
    await open(cluster);
    expect(await stats(cluster)).toEqual(tasks(2, 1, 1, 0, 0));
    expect((await api.request('DELETE', `/v1/spaces/${binned.id}`, { token: admin.token })).status).toBe(204);
    expect(await stats(cluster)).toEqual(tasks(1, 1, 0, 0, 0));
    const listed = await api.request('GET', `/v1/orgs/${org.id}/conversations-clusters?orderBy=tasksStarted`, { token: reader.token });
    expect(listed.body.items.find((c: { id: string }) => c.id === cluster).stats.tasksStarted).toBe(0);
    expect((await api.request('POST', `/v1/spaces/${binned.id}/restore`, { token: admin.token })).status).toBe(200);
    expect(await stats(cluster)).toEqual(tasks(2, 1, 1, 0, 0));
  });

  it('stays exact under 20 concurrent creations and 20 concurrent status changes', async () => {
    const cluster = await newCluster('Busy');
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) => open(cluster, i % 4 === 0 ? 'open' : 'draft')));
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await stats(cluster)).toEqual(tasks(20, 15, 5, 0, 0));
    const statuses = ['open', 'archived', 'draft', 'open', 'archived'] as const;
    const answers = await Promise.all(made.map((r, i) => patch(r.body.id, { status: statuses[i % statuses.length] })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await stats(cluster)).toEqual(tasks(20, 4, 8, 0, 8));
  });

  it('orders the cluster list by tasksTotal, tasksBacklog and tasksStarted, paging through them', async () => {
    const few = await newCluster('Few tasks');
    const many = await newCluster('Many tasks');
    await Promise.all([open(few), open(many), open(many), open(many, 'open'), open(many, 'open'), open(many, 'open')]);
    const order = async (orderBy: string) => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await api.request('GET', `/v1/orgs/${org.id}/conversations-clusters?orderBy=${orderBy}&limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`, { token: reader.token });
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((c: { id: string }) => c.id));
        page = res.body.next?.page;
      } while (page);
      return seen.filter((id) => id === few || id === many);
    };
    expect(await order('tasksTotal')).toEqual([many, few]);
    expect(await order('tasksStarted')).toEqual([many, few]);
    expect(await order('tasksBacklog')).toEqual([many, few]);
    const asc = await api.request('GET', `/v1/orgs/${org.id}/conversations-clusters?orderBy=tasksTotal&order=asc&limit=1000`, { token: reader.token });
    const ids = asc.body.items.map((c: { id: string }) => c.id);
    expect(ids.indexOf(few)).toBeLessThan(ids.indexOf(many));
  });
});
