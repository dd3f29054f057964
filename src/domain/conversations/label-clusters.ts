import type { EntityManager } from '@mikro-orm/postgresql';
import type { AiServices } from '../ai/ai-services.ts';

/**
 * The new and changed clusters a run described (`described[c]`: its terms and representative
 * issues, by index into `issues`), with their labels as the run's transaction leaves them:
 * the compare-and-set's expected value.
 */
export async function clustersToLabel(
  tx: EntityManager,
  rows: Array<{ id: string; isNew: boolean; changed: boolean }>,
  described: Array<{ terms: string[]; representatives: number[] } | null>,
  issues: Array<{ title: string }>,
): Promise<ClusterToLabel[]> {
  const wanted = rows.flatMap((row, c) => {
    const found = described[c];
    return (row.isNew || row.changed) && found ? [{ id: row.id, titles: found.representatives.map((i) => issues[i]!.title), terms: found.terms }] : [];
  });
  if (wanted.length === 0) return [];
  const labels = await tx.execute<Array<{ id: string; label: string }>>('select id, label from conversation_issue_clusters where id in (?)', [wanted.map((w) => w.id)]);
  const labelOf = new Map(labels.map((l) => [l.id, l.label]));
  return wanted.flatMap((w) => (labelOf.has(w.id) ? [{ ...w, label: labelOf.get(w.id)! }] : []));
}

/** A cluster a re-clustering made or changed, with what a chat model names it from, and the label it had at the commit. */
export type ClusterToLabel = { id: string; label: string; titles: string[]; terms: string[] };

/**
 * Asks the chat model (LLM_URL) for the labels of the clusters a re-clustering made or
 * changed, after it committed: one request at a time, no transaction open and no lock
 * held meanwhile. A label is written only if the cluster still exists with the label it
 * had at the commit (compare-and-set): a later run's label, or a deleted cluster, stays
 * as it is. Without an answer the label from distinctive terms stays. Answers how many changed.
 */
export async function labelClusters(em: EntityManager, organizationId: string, clusters: ClusterToLabel[], ai: Pick<AiServices, 'labelCluster'>): Promise<number> {
  let labelled = 0;
  for (const cluster of clusters) {
    const label = await ai.labelCluster(cluster.titles, cluster.terms);
    if (!label || label === cluster.label) continue;
    const updated = await em.execute<Array<{ id: string }>>(
      'update conversation_issue_clusters set label = ? where id = ? and organization_id = ? and label = ? returning id',
      [label, cluster.id, organizationId, cluster.label],
    );
    labelled += updated.length;
  }
  return labelled;
}
