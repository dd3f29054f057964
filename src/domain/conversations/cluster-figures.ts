import { LIVE_TASK_SPACE } from './cluster-tasks-sql.ts';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Weeks in a cluster's pulse: the current week and the twelve before it (about three months). */
export const PULSE_WEEKS = 13;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * A cluster's tasks are the change requests linked to it, counted by where they stand: a
 * draft is in the backlog, an open one started, a merged one completed, an archived one
 * cancelled.
 */
export const TASK_STATUS = { draft: 'backlog', open: 'started', merged: 'completed', archived: 'cancelled' } as const;
export type ClusterTasks = { total: number; backlog: number; started: number; completed: number; cancelled: number };

export type ClusterFigures = {
  tasks: ClusterTasks;
  issues: number;
  conversations: number;
  /** Issues per source of their conversation. */
  sources: Record<string, number>;
  /** Issues per week, oldest first, ending with the current week (weeks start on Monday, UTC). */
  weeklyPulse: number[];
};

/** Monday 00:00 UTC of the week holding `now`. */
export function weekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 24 * 3600 * 1000);
}

/**
 * The figures of each cluster, computed from its issues and linked change requests with
 * four grouped queries for the whole page. The pulse counts issues by when their conversation happened
 * (`metadata.createdAt`, else its first ingestion); a conversation dated in the future
 * or before the 13 weeks is in no week of it.
 */
export async function clusterFigures(em: EntityManager, clusterIds: string[], now: Date): Promise<Map<string, ClusterFigures>> {
  const figures = new Map<string, ClusterFigures>(
    clusterIds.map((id) => [
      id,
      { tasks: { total: 0, backlog: 0, started: 0, completed: 0, cancelled: 0 }, issues: 0, conversations: 0, sources: {}, weeklyPulse: new Array<number>(PULSE_WEEKS).fill(0) },
    ]),
  );
  if (clusterIds.length === 0) return figures;
  const from = new Date(weekStart(now).getTime() - (PULSE_WEEKS - 1) * WEEK_MS);
  const until = new Date(weekStart(now).getTime() + WEEK_MS);
  const [totals, sources, weeks, tasks] = await Promise.all([
    em.execute<Array<{ cluster_id: string; issues: number; conversations: number }>>(
      `select i.cluster_id, count(*)::int as issues, count(distinct i.conversation_id)::int as conversations
       from conversation_issues i where i.cluster_id in (?) group by i.cluster_id`,
      [clusterIds],
    ),
    em.execute<Array<{ cluster_id: string; source: string; n: number }>>(
      `select i.cluster_id, c.source, count(*)::int as n
       from conversation_issues i join conversations c on c.id = i.conversation_id
       where i.cluster_id in (?) group by i.cluster_id, c.source`,
      [clusterIds],
    ),
    em.execute<Array<{ cluster_id: string; week: number; n: number }>>(
      `select i.cluster_id, floor(extract(epoch from (c.created_at - ?::timestamptz)) / ${WEEK_MS / 1000})::int as week, count(*)::int as n
       from conversation_issues i join conversations c on c.id = i.conversation_id
       where i.cluster_id in (?) and c.created_at >= ? and c.created_at < ?
       group by 1, 2`,
      [from.toISOString(), clusterIds, from, until],
    ),
    em.execute<Array<{ cluster_id: string; status: keyof typeof TASK_STATUS; n: number }>>(
      `select c.cluster_id, c.status, count(*)::int as n
       from change_requests c join conversation_issue_clusters k on k.id = c.cluster_id ${LIVE_TASK_SPACE}
       where c.cluster_id in (?) group by c.cluster_id, c.status`,
      [clusterIds],
    ),
  ]);
  for (const t of totals) Object.assign(figures.get(t.cluster_id)!, { issues: t.issues, conversations: t.conversations });
  for (const s of sources) figures.get(s.cluster_id)!.sources[s.source] = s.n;
  for (const t of tasks) {
    const counted = figures.get(t.cluster_id)!.tasks;
    counted[TASK_STATUS[t.status]] += t.n;
    counted.total += t.n;
  }
  for (const w of weeks) if (w.week >= 0 && w.week < PULSE_WEEKS) figures.get(w.cluster_id)!.weeklyPulse[w.week] = w.n;
  return figures;
}
