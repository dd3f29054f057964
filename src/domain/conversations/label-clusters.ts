import type { EntityManager } from '@mikro-orm/postgresql';
import type { AiServices } from '../ai/ai-services.ts';

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
