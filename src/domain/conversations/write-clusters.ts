import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClusterDescription } from './describe-cluster.ts';

export type ClusterRow = {
  id: string;
  /** No old cluster continues into it: a new row. */
  isNew: boolean;
  /** Its issues are not the ones it had: `updatedAt` moves. */
  changed: boolean;
  /** Label, summary and icon from this run; null for an old cluster it has none for (kept as they are). */
  described: ClusterDescription | null;
};

/**
 * Writes a re-clustering's clusters, all `ready`: new ones inserted; kept ones keep their
 * id, label, icon and creation date and get the new summary (their representative issues
 * may have changed). Answers how many of each.
 */
export async function writeClusters(tx: EntityManager, organizationId: string, rows: ClusterRow[], now: Date): Promise<{ kept: number; created: number }> {
  const created = rows.filter((r) => r.isNew);
  const kept = rows.filter((r) => !r.isNew);
  if (created.length) {
    await tx.execute(
      `insert into conversation_issue_clusters (id, organization_id, label, summary, icon, status, created_at, updated_at)
       select r.id, ?, r.label, r.summary, r.icon, 'ready', ?, ? from jsonb_to_recordset(?::jsonb) as r(id text, label text, summary text, icon text)`,
      [organizationId, now, now, JSON.stringify(created.map(({ id, described }) => ({ id, ...described! })))],
    );
  }
  if (kept.length) {
    await tx.execute(
      `update conversation_issue_clusters k set summary = coalesce(r.summary, k.summary), status = 'ready',
         updated_at = case when r.changed or k.summary is distinct from coalesce(r.summary, k.summary) then ?::timestamptz else k.updated_at end
       from jsonb_to_recordset(?::jsonb) as r(id text, summary text, changed boolean)
       where k.id = r.id and k.organization_id = ?`,
      [now, JSON.stringify(kept.map(({ id, described, changed }) => ({ id, summary: described?.summary ?? null, changed }))), organizationId],
    );
  }
  return { kept: kept.length, created: created.length };
}
