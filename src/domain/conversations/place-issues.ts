import type { EntityManager } from '@mikro-orm/postgresql';
import { placeText, placeVector } from './clustering/cluster-model.ts';
import { currentModel, type CurrentModel } from './cluster-model-store.ts';
import { customerWords } from './extract-issues.ts';

/**
 * Cosine similarity to the nearest centroid below which a new issue is left unassigned
 * until the next re-clustering, rather than put in a cluster that does not describe it.
 * Measured with a BANKING77 model fitted on 90 % of its texts: held-out texts its own
 * clusters answer for score 0.58 at the 5th percentile (99.3 % kept at 0.5), texts of
 * another domain (HWU64: alarms, music, weather…) 0.46 at the median (59 % refused).
 */
export const PLACE_THRESHOLD = 0.5;

/** The text clustering reads of an issue: its title and what the customer wrote. */
export function issueText(issue: { title: string; summary: string }): string {
  return `${issue.title}. ${customerWords(issue.summary)}`;
}

/** An issue with its stored embedding, if any, and the model that made it. */
export type IssueToPlace = { id: string; title: string; summary: string; embedding?: Float32Array | null; embeddingModel?: string | null };

/**
 * The cluster each issue belongs to under the current model, or none when it is not near
 * enough to any (the model's calibrated threshold, else PLACE_THRESHOLD). An LSA model
 * places the issue's text; an embeddings model its embedding, only one of that same model:
 * an issue without one waits for the next re-clustering (which embeds it first).
 */
export function placements(current: CurrentModel, issues: IssueToPlace[]): Array<{ id: string; cluster: string }> {
  const { space } = current.model;
  return issues.flatMap((issue) => {
    const placed =
      space.kind === 'lsa'
        ? placeText(current.model, issueText(issue))
        : issue.embedding && issue.embeddingModel === space.model
          ? placeVector(current.model, issue.embedding)
          : null;
    return placed && placed.similarity >= (current.model.placeThreshold ?? PLACE_THRESHOLD) ? [{ id: issue.id, cluster: current.clusterIds[placed.cluster]! }] : [];
  });
}

/**
 * Incremental assignment: each issue goes to its nearest existing cluster at once, so new
 * issues show up in clusters seconds after ingestion. Runs in the caller's transaction,
 * which holds the organization's placement lock (`lockForPlacement`): a re-clustering
 * cannot swap the model or delete a cluster until it commits. Answers how many were placed;
 * the rest wait for the next re-clustering. The clusters that gained issues are touched
 * (`updatedAt`), in id order so concurrent batches lock them in the same order.
 */
export async function placeIssues(tx: EntityManager, organizationId: string, issues: IssueToPlace[], now: Date): Promise<number> {
  if (issues.length === 0) return 0;
  const current = await currentModel(tx, organizationId);
  if (!current) return 0;
  const placed = placements(current, issues);
  if (placed.length === 0) return 0;
  await tx.execute(
    `update conversation_issues i set cluster_id = r.cluster
     from jsonb_to_recordset(?::jsonb) as r(id text, cluster text) where i.id = r.id`,
    [JSON.stringify(placed)],
  );
  const touched = [...new Set(placed.map((p) => p.cluster))].sort();
  await tx.execute(
    `update conversation_issue_clusters set updated_at = ? where id in (
       select id from conversation_issue_clusters where id in (?) order by id for no key update)`,
    [now, touched],
  );
  return placed.length;
}

/**
 * Taken first by every transaction that places issues (shared) and by a re-clustering
 * before it writes (exclusive), on the transaction's own connection: placements never
 * use a model, or name a cluster, that a committing re-clustering replaces.
 */
export async function lockForPlacement(tx: EntityManager, organizationId: string, mode: 'shared' | 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await tx.execute(`select ${fn}(hashtextextended(?, 0))`, [`cluster-placement:${organizationId}`]);
}
