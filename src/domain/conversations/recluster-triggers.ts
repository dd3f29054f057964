import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A full re-clustering is due once the issues extracted new or changed since the last one
 * reach 20 % of what it grouped, or 1,000 whatever the size (a large organization should
 * not wait for 20 % of 100k), or any at all before the first one. Between runs, new issues
 * are placed incrementally (place-issues.ts); the run regroups them with the rest.
 */
export const GROWTH_RATIO = 0.2;
export const GROWTH_MAX = 1000;

export function reclusterDue(state: { issues: number; newIssues: number }): boolean {
  return state.newIssues > 0 && state.newIssues >= Math.min(Math.max(1, Math.ceil(GROWTH_RATIO * state.issues)), GROWTH_MAX);
}

/**
 * Counts `n` new or changed issues in the extraction batch's transaction and, when that
 * makes a re-clustering due, none is requested yet and the caller can record the job
 * (`request`), requests one: answers true, and the caller records the job in the same
 * transaction. The counting upsert holds the organization's row until commit, so
 * concurrent batches request one job, not several.
 */
export async function noteNewIssues(tx: EntityManager, organizationId: string, n: number, now: Date, request: boolean): Promise<boolean> {
  if (n <= 0) return false;
  const [state] = await tx.execute<Array<{ issues: number; new_issues: number; requested_at: Date | null }>>(
    `insert into conversation_clusterings (organization_id, cluster_ids, new_issues) values (?, '[]'::jsonb, ?)
     on conflict (organization_id) do update set new_issues = conversation_clusterings.new_issues + excluded.new_issues
     returning issues, new_issues, requested_at`,
    [organizationId, n],
  );
  if (!request || !state || state.requested_at !== null || !reclusterDue({ issues: state.issues, newIssues: state.new_issues })) return false;
  await tx.execute('update conversation_clusterings set requested_at = ? where organization_id = ?', [now, organizationId]);
  return true;
}

/**
 * The schedule's share: organizations with issues new since their last re-clustering and
 * no run requested, claimed (`requested_at`) in one statement so that overlapping ticks
 * or an extraction batch never request a second run. The caller records their jobs in
 * the same transaction.
 */
export async function claimDueOrganizations(tx: EntityManager, now: Date, limit: number): Promise<string[]> {
  const rows = await tx.execute<Array<{ organization_id: string }>>(
    `update conversation_clusterings set requested_at = ? where organization_id in (
       select organization_id from conversation_clusterings where new_issues > 0 and requested_at is null
       order by organization_id limit ? for update skip locked)
     returning organization_id`,
    [now, limit],
  );
  return rows.map((r) => r.organization_id).sort();
}

/** An on-demand run: recorded whatever is pending (the run lock serializes it with others). */
export async function requestRecluster(tx: EntityManager, organizationId: string, now: Date): Promise<void> {
  await tx.execute(
    `insert into conversation_clusterings (organization_id, cluster_ids, requested_at) values (?, '[]'::jsonb, ?)
     on conflict (organization_id) do update set requested_at = coalesce(conversation_clusterings.requested_at, excluded.requested_at)`,
    [organizationId, now],
  );
}

/**
 * A re-clustering that failed for good: its request ends (the next trigger may request
 * another) and the clusters it marked `analysing` are `ready` again — the previous
 * clustering is still whole. Idempotent.
 */
export async function endFailedRecluster(em: EntityManager, organizationId: string): Promise<void> {
  await em.execute('update conversation_clusterings set requested_at = null, started_at = null where organization_id = ?', [organizationId]);
  await em.execute(
    `update conversation_issue_clusters set status = 'ready' where id in (
       select id from conversation_issue_clusters where organization_id = ? and status = 'analysing' order by id for no key update)`,
    [organizationId],
  );
}

/** Organizations whose re-clustering was requested or started before `before` (the stranded-record sweep's candidates). */
export async function unfinishedReclusters(em: EntityManager, before: Date, limit: number): Promise<string[]> {
  const rows = await em.execute<Array<{ organization_id: string }>>(
    `select organization_id from conversation_clusterings where requested_at < ? or started_at < ? order by organization_id limit ?`,
    [before, before, limit],
  );
  return rows.map((r) => r.organization_id);
}
