import { LIVE_TASK_SPACE } from './cluster-tasks-sql.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IssueCluster, type ClusterStatus } from '../entities/issue-cluster.entity.ts';
import { notFound } from '../shared/errors.ts';
import { keysetPage, keysetStart, type Page, type PageRequest, type SortKey } from '../shared/paging.ts';

export const CLUSTER_ORDERS = ['updatedAt', 'issues', 'conversations', 'tasksTotal', 'tasksBacklog', 'tasksStarted'] as const;
export type ClusterOrder = (typeof CLUSTER_ORDERS)[number];

export type ClusterFilters = { orderBy: ClusterOrder; order: 'asc' | 'desc'; status?: Extract<ClusterStatus, 'pending' | 'analysing'> | undefined };

/*
 * What each ordering sorts by, as SQL over a cluster `k`. Counts come from the issues
 * themselves (never stored counters); tasks from the change requests linked to the
 * cluster (see TASK_STATUS in cluster-figures.ts), using the (cluster_id, status) index.
 */
const METRIC: Record<ClusterOrder, string> = {
  // Page tokens carry milliseconds: a row written with microseconds (SQL `now()`) must compare as its token does.
  updatedAt: "date_trunc('milliseconds', k.updated_at)",
  issues: '(select count(*) from conversation_issues i where i.cluster_id = k.id)::int',
  conversations: '(select count(distinct i.conversation_id) from conversation_issues i where i.cluster_id = k.id)::int',
  tasksTotal: `(select count(*) from change_requests c ${LIVE_TASK_SPACE} where c.cluster_id = k.id)::int`,
  tasksBacklog: `(select count(*) from change_requests c ${LIVE_TASK_SPACE} where c.cluster_id = k.id and c.status = 'draft')::int`,
  tasksStarted: `(select count(*) from change_requests c ${LIVE_TASK_SPACE} where c.cluster_id = k.id and c.status = 'open')::int`,
};

/**
 * A page of the organization's clusters in the order asked, the id breaking ties. Keyset
 * paged over the computed value, so a page token carries the last cluster's value and id.
 */
export async function listClusters(em: EntityManager, organizationId: string, filters: ClusterFilters, page: PageRequest): Promise<Page<IssueCluster>> {
  const dir = filters.order;
  const sort: SortKey[] = [
    { key: filters.orderBy, direction: dir, type: filters.orderBy === 'updatedAt' ? 'date' : 'number' },
    { key: 'id', direction: dir, type: 'string' },
  ];
  const start = keysetStart(page, sort);
  const status = filters.status === undefined ? '' : 'and k.status = ?';
  const base = [organizationId, ...(filters.status === undefined ? [] : [filters.status])];
  const [{ n }] = (await em.execute<Array<{ n: number }>>(`select count(*)::int as n from conversation_issue_clusters k where k.organization_id = ? ${status}`, base)) as [{ n: number }];
  if (page.limit === 0) return { items: [], count: n };
  const after = start ? `where (s.metric, s.id) ${dir === 'desc' ? '<' : '>'} (?, ?)` : '';
  const rows = await em.execute<Array<{ id: string; metric: number | Date }>>(
    `select s.id, s.metric from (
       select k.id, ${METRIC[filters.orderBy]} as metric from conversation_issue_clusters k where k.organization_id = ? ${status}
     ) s ${after}
     order by s.metric ${dir}, s.id ${dir} limit ?`,
    [...base, ...(start ?? []), page.limit + 1],
  );
  const clusters = await em.find(IssueCluster, { id: { $in: rows.map((r) => r.id) } });
  const byId = new Map(clusters.map((c) => [c.id, c]));
  const metric = new Map(rows.map((r) => [r.id, r.metric]));
  const ordered = rows.map((r) => byId.get(r.id)).filter((c): c is IssueCluster => c !== undefined);
  return keysetPage(ordered, n, sort, page, (c) => [sort[0]!.type === 'date' ? new Date(metric.get(c.id) as Date) : Number(metric.get(c.id)), c.id]);
}

export async function getCluster(em: EntityManager, organizationId: string, id: string): Promise<IssueCluster> {
  const cluster = await em.findOne(IssueCluster, { id, organization: organizationId });
  if (!cluster) throw notFound('Cluster');
  return cluster;
}
