import { setTimeout } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { clusterInThread } from './cluster-pool.ts';
import type { ClusterOutcome, ClusterTask } from './cluster-worker.ts';
import type { AiLog } from '../ai/ai-log.ts';
import type { AiServices } from '../ai/ai-services.ts';
import { newId } from '../shared/ids.ts';
import { decodeClusterModel } from './cluster-model-codec.ts';
import { modelCache, type CurrentModel } from './cluster-model-store.ts';
import { describeCluster } from './describe-cluster.ts';
import { embeddingMatrix, embeddingOf, embedMissing, type Embeddings } from './issue-embeddings.ts';
import { clustersToLabel, labelClusters } from './label-clusters.ts';
import { issueText, lockForPlacement, placements } from './place-issues.ts';
import { writeClusters, type ClusterRow } from './write-clusters.ts';

/** The same issues always cluster the same way. */
const SEED = 1;

export type ReclusterOptions = {
  now: () => Date;
  /** Removes the job's outbox record in the transaction that commits the run. */
  finishIn?: ((tx: EntityManager) => Promise<void>) | undefined;
  /** Called inside the transaction once the cluster rows are written, before the rest (tests pause here). */
  afterClusterRows?: (() => Promise<void>) | undefined;
  /**
   * The AI services (ai-services.ts). With an embeddings model: issues without its vector
   * are embedded before the run's transaction, and the run clusters the vectors when every
   * issue has one (else LSA, logged). With a chat model: new and changed clusters are
   * labelled by it after the commit (label-clusters.ts).
   */
  ai?: (Embeddings & Pick<AiServices, 'labelCluster'>) | undefined;
  /** Where the fall-back to LSA is reported. */
  log?: AiLog | undefined;
};

export type ReclusterResult = {
  version: number;
  issues: number;
  clusters: number;
  kept: number;
  created: number;
  removed: number;
  durationMs: number;
  /** The vector space clustered: the embeddings model's name, or `lsa`. */
  space: string;
  /** Clusters whose label the chat model gave. */
  labelled: number;
};

type IssueRow = { id: string; title: string; summary: string; cluster_id: string | null; ingested_at: Date; embedding: Buffer | null };

/**
 * Clusters all of the organization's issues again and commits the result in one
 * transaction: cluster rows, every issue's cluster and the model placements use. A worker
 * killed mid-way leaves the previous state whole, and the retry does the run again.
 *
 * One run per organization at a time: each holds the organization's run lock for its
 * transaction (underRunLock). Meanwhile the organization's clusters show `analysing`. Ids are
 * stable: the run is anchored to the previous clustering (anchor-clusters.ts: earlier
 * issues move only to a clearly nearer cluster); each new cluster that continues an old
 * one (matchClusters) keeps its id, label, icon and creation date; old clusters left
 * without issues are deleted. Issues extracted
 * while the run computed (not in what it read) are placed with the new model before it commits.
 *
 * With `opts.ai`: the run clusters embeddings instead of the texts' LSA vectors when every
 * issue has one of the configured model (embedded before the transaction, no lock held
 * meanwhile), and new and changed clusters get a chat model's label after the commit.
 */
export async function reclusterOrganization(em: EntityManager, organizationId: string, opts: ReclusterOptions): Promise<ReclusterResult> {
  const model = opts.ai?.embeddingsModel ?? null;
  // Network calls before the transaction: no lock is held while the endpoint answers.
  if (model) await embedMissing(em, organizationId, opts.ai!);
  const { result, current, toLabel } = await underRunLock(em, organizationId, async (tx) => {
    const started = performance.now();
    await markAnalysing(em, organizationId, opts.now());
    const [state] = await tx.execute<Array<{ new_issues: number }>>('select new_issues from conversation_clusterings where organization_id = ?', [organizationId]);
    const issues = await tx.execute<IssueRow[]>(
      // In an order given by their content, so the same issues always cluster the same way.
      `select id, title, summary, cluster_id, ingested_at, case when embedding_model = ? then embedding end as embedding
       from conversation_issues where organization_id = ? order by title, summary, id`,
      [model, organizationId],
    );
    const texts = issues.map(issueText);
    const previous = issues.map((i) => i.cluster_id);
    const vectors = model && issues.length ? vectorsOrWhyNot(model, issues, organizationId, opts.log) : undefined;
    // The matrix holds them now (or LSA is used): the driver's buffers need not live through the run.
    for (const issue of issues) issue.embedding = null;
    // In a thread: the job's lock renewals (this event loop) go on meanwhile.
    const clustering = issues.length ? await clusterInThread({ texts, previous, seed: SEED, ...(vectors ? { vectors } : {}) }) : null;
    const ids = clustering ? clustering.ids.map((old) => old ?? newId()) : [];

    // From here on no placement runs for this organization until the commit.
    await lockForPlacement(tx, organizationId, 'exclusive');
    const now = opts.now();
    const rows = clusterRows(clustering, ids, issues);
    const written = await writeClusters(tx, organizationId, rows, now);
    await opts.afterClusterRows?.();
    const toLabel = opts.ai && clustering ? await clustersToLabel(tx, rows, clustering.described, issues) : [];
    await assignIssues(tx, issues, clustering, ids);
    const removed = await tx.execute<Array<{ id: string }>>(
      `delete from conversation_issue_clusters where organization_id = ?
       and id not in (select jsonb_array_elements_text(?::jsonb)) returning id`,
      [organizationId, JSON.stringify(ids)],
    );
    // Placements here and on every worker use the stored (decoded) model, never the thread's own.
    const encoded = clustering ? Buffer.from(clustering.model.buffer, clustering.model.byteOffset, clustering.model.byteLength) : null;
    const current = encoded ? { version: 0, model: decodeClusterModel(encoded), clusterIds: ids } : null;
    if (current) await placeLateIssues(tx, organizationId, current);
    const durationMs = Math.round(performance.now() - started);
    const [saved] = await tx.execute<Array<{ version: number }>>(
      `insert into conversation_clusterings (organization_id, version, model, cluster_ids, issues, new_issues, clustered_at, duration_ms)
       values (?, 1, ?, ?::jsonb, ?, 0, ?, ?)
       on conflict (organization_id) do update set
         version = conversation_clusterings.version + 1, model = excluded.model, cluster_ids = excluded.cluster_ids,
         issues = excluded.issues, new_issues = greatest(conversation_clusterings.new_issues - ?, 0),
         requested_at = null, started_at = null, clustered_at = excluded.clustered_at, duration_ms = excluded.duration_ms
       returning version`,
      [organizationId, encoded, JSON.stringify(ids), issues.length, now, durationMs, state?.new_issues ?? 0],
    );
    await opts.finishIn?.(tx);
    const version = saved!.version;
    const space = current?.model.space.kind === 'embeddings' ? current.model.space.model : 'lsa';
    return {
      result: { version, issues: issues.length, clusters: ids.length, kept: written.kept, created: written.created, removed: removed.length, durationMs, space },
      current: current && { ...current, version },
      toLabel,
    };
  });
  // Cached only once committed: a rolled-back version number is used again by the retry.
  if (current) modelCache.set(organizationId, current);
  const labelled = opts.ai && toLabel.length ? await labelClusters(em, organizationId, toLabel, opts.ai) : 0;
  return { ...result, labelled };
}

/** The issues' embeddings for the thread, or undefined (LSA) with the reason logged. */
function vectorsOrWhyNot(model: string, issues: IssueRow[], organizationId: string, log: AiLog | undefined): ClusterTask['vectors'] {
  const matrix = embeddingMatrix(model, issues.map((i) => i.embedding));
  if ('vectors' in matrix) return matrix.vectors;
  log?.warn({ organizationId, reason: matrix.reason }, 'embeddings incomplete; re-clustering uses sparse vectors (LSA)');
  return undefined;
}

/**
 * Runs `work` in a transaction that holds the organization's run lock. A run that finds the
 * lock taken gives its connection back and tries again later: waiting inside the
 * transaction would hold a pooled connection per waiting run, and the run holding the lock
 * needs a second one (markAnalysing), so enough waiting runs would starve it for good.
 */
async function underRunLock<T>(em: EntityManager, organizationId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 2_000)) {
    const outcome = await em.transactional(async (tx) => {
      const [row] = await tx.execute<Array<{ locked: boolean }>>('select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked', [
        `cluster-run:${organizationId}`,
      ]);
      return row!.locked ? { done: true as const, value: await work(tx) } : { done: false as const };
    });
    if (outcome.done) return outcome.value;
    await setTimeout(pause * (0.5 + Math.random()));
  }
}

/**
 * The organization's clusters show `analysing` while a run computes. Written on a pooled
 * connection of its own (autocommit), not the run's transaction, so readers see it at
 * once; rows are locked in id order, as placements lock them. Not a change of the cluster:
 * `updatedAt` stays.
 */
async function markAnalysing(em: EntityManager, organizationId: string, now: Date): Promise<void> {
  await em.getConnection().execute(
    `with run as (update conversation_clusterings set started_at = ? where organization_id = ?)
     update conversation_issue_clusters set status = 'analysing' where id in (
       select id from conversation_issue_clusters where organization_id = ? order by id for no key update)`,
    [now, organizationId, organizationId],
  );
}

function clusterRows(clustering: ClusterOutcome | null, ids: string[], issues: IssueRow[]): ClusterRow[] {
  if (!clustering) return [];
  const moved = new Set<string>();
  clustering.assignment.forEach((c, i) => {
    if (issues[i]!.cluster_id === ids[c]) return;
    moved.add(ids[c]!);
    if (issues[i]!.cluster_id) moved.add(issues[i]!.cluster_id!);
  });
  return ids.map((id, c) => {
    const found = clustering.described[c]!;
    // An old cluster the run did not continue keeps its description: the run has none for it.
    const described = found && describeCluster(found.terms, found.representatives.map((i) => issues[i]!.title));
    return { id, isNew: clustering.ids[c] === null, changed: moved.has(id), described };
  });
}

/**
 * Every issue read gets its new cluster, unless its text changed since it was read (a
 * re-ingest moved `ingested_at` and cleared its cluster): that one is placed afresh below.
 */
async function assignIssues(tx: EntityManager, issues: IssueRow[], clustering: ClusterOutcome | null, ids: string[]): Promise<void> {
  if (!clustering) return;
  const moves = issues.flatMap((issue, i) => {
    const cluster = ids[clustering.assignment[i]!]!;
    return issue.cluster_id === cluster ? [] : [{ id: issue.id, cluster, at: new Date(issue.ingested_at).toISOString() }];
  });
  for (let i = 0; i < moves.length; i += 10_000) {
    await tx.execute(
      `update conversation_issues i set cluster_id = r.cluster
       from jsonb_to_recordset(?::jsonb) as r(id text, cluster text, at timestamptz)
       where i.id = r.id and i.ingested_at = r.at`,
      [JSON.stringify(moves.slice(i, i + 10_000))],
    );
  }
}

/** Issues without a cluster now (extracted or changed while the run computed), placed with the new model. */
async function placeLateIssues(tx: EntityManager, organizationId: string, current: CurrentModel): Promise<void> {
  const late = await tx.execute<Array<{ id: string; title: string; summary: string; embedding: Buffer | null; embedding_model: string | null }>>(
    'select id, title, summary, embedding, embedding_model from conversation_issues where organization_id = ? and cluster_id is null',
    [organizationId],
  );
  const placed = placements(
    current,
    late.map((i) => ({ ...i, embedding: i.embedding && embeddingOf(i.embedding), embeddingModel: i.embedding_model })),
  );
  if (placed.length === 0) return;
  await tx.execute(
    `update conversation_issues i set cluster_id = r.cluster from jsonb_to_recordset(?::jsonb) as r(id text, cluster text) where i.id = r.id`,
    [JSON.stringify(placed)],
  );
}
