import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConversationPart } from '../entities/conversation.entity.ts';
import { newId } from '../shared/ids.ts';
import { extractIssues, type ExtractedIssue } from './extract-issues.ts';
import { embeddingOf, writeEmbeddings, type Embeddings } from './issue-embeddings.ts';
import { issueText, lockForPlacement, placeIssues, type IssueToPlace } from './place-issues.ts';
import { noteNewIssues } from './recluster-triggers.ts';

/** Conversations per transaction: small enough that a re-ingest never waits long on their locks. */
export const EXTRACT_BATCH = 100;

export type ExtractOptions = {
  now: () => Date;
  /** Stop at the next batch boundary (the worker is shutting down; another takes the rest). */
  signal?: AbortSignal | undefined;
  /** Called after each committed batch (progress reports). */
  afterBatch?: (done: number) => Promise<void>;
  /**
   * Called in a batch's transaction when its issues make a full re-clustering due
   * (recluster-triggers.ts): the caller records the job there, so it commits with them.
   */
  reclusterDue?: (tx: EntityManager) => void;
  /**
   * Another way to extract a conversation's issues (an LLM: src/domain/ai/issue-titles.ts),
   * called for every conversation of a batch at once, inside its transaction. It must not
   * throw: it answers with the offline heuristics when it cannot do better.
   */
  extract?: IssueExtractor;
  /** Conversations per batch: smaller for `extract`s that reach out, so row locks stay short. */
  batchSize?: number;
  /**
   * The AI services (ai-services.ts): with an embeddings model configured, a batch embeds
   * its new and changed issues, in its transaction (one request per 100 issues, each
   * bounded by AI_TIMEOUT_MS), and places them by their vectors when the current model is
   * one of embeddings. On failure the issues stay without a vector; the batch still commits.
   */
  ai?: Embeddings | undefined;
};

export type IssueExtractor = (conversation: { subject: string | null; parts: ConversationPart[] }) => Promise<ExtractedIssue[]>;

type Row = { id: string; subject: string | null; parts: ConversationPart[]; ingested_at: Date };

/**
 * Extracts the issues of every conversation of the organization still waiting for it,
 * a batch per transaction. Each batch locks its conversations (`FOR UPDATE SKIP LOCKED`):
 * concurrent runs share the work instead of repeating it, and a re-ingest of a
 * conversation in the batch waits for the batch to commit, then clears `processedAt`
 * again, so newer content is never marked done with older issues. A batch writes its
 * issues and `processedAt` together: a worker killed mid-way leaves either the whole batch
 * or none of it, and a retry picks up exactly what is left. In the same transaction, a
 * batch places its new and changed issues in their nearest clusters (place-issues.ts) and
 * counts them towards the next full re-clustering (recluster-triggers.ts).
 */
export async function extractPendingIssues(em: EntityManager, organizationId: string, opts: ExtractOptions): Promise<{ conversations: number; issues: number }> {
  let conversations = 0;
  let issues = 0;
  while (!opts.signal?.aborted) {
    const batch = await em.transactional((tx) => extractBatch(tx, organizationId, opts));
    if (batch.conversations === 0) break;
    conversations += batch.conversations;
    issues += batch.issues;
    await opts.afterBatch?.(conversations);
  }
  return { conversations, issues };
}

async function extractBatch(tx: EntityManager, organizationId: string, opts: ExtractOptions) {
  const now = opts.now();
  // First, before any row lock: a committing re-clustering waits for this batch, or it for that.
  await lockForPlacement(tx, organizationId, 'shared');
  const rows = await tx.execute<Row[]>(
    `select id, subject, parts, ingested_at from conversations
     where organization_id = ? and processed_at is null
     order by ingested_at, id limit ? for update skip locked`,
    [organizationId, opts.batchSize ?? EXTRACT_BATCH],
  );
  if (rows.length === 0) return { conversations: 0, issues: 0 };
  const extract = opts.extract ?? (async (c) => extractIssues(c));
  const extracted = await Promise.all(rows.map((row) => extract({ subject: row.subject, parts: row.parts })));
  const found = rows.flatMap((row, r) =>
    extracted[r]!.map((issue, ordinal) => ({
      id: newId(),
      conversation_id: row.id,
      ordinal,
      title: issue.title,
      summary: issue.summary,
      ingested_at: new Date(row.ingested_at).toISOString(),
    })),
  );
  const counts = rows.map((row) => ({ conversation_id: row.id, n: found.filter((i) => i.conversation_id === row.id).length }));
  // Issues beyond what this extraction found (the conversation changed) go.
  await tx.execute(
    `delete from conversation_issues i using jsonb_to_recordset(?::jsonb) as k(conversation_id text, n int)
     where i.conversation_id = k.conversation_id and i.ordinal >= k.n`,
    [JSON.stringify(counts)],
  );
  if (found.length) {
    // Same (conversation, ordinal): same issue id. Its cluster and embedding stay unless its text changed.
    const written = await tx.execute<Array<{ id: string; title: string; summary: string; cluster_id: string | null; embedding: Buffer | null; embedding_model: string | null }>>(
      `insert into conversation_issues (id, organization_id, conversation_id, ordinal, title, summary, created_at, ingested_at, cluster_id)
       select r.id, ?, r.conversation_id, r.ordinal, r.title, r.summary, ?::timestamptz, r.ingested_at, null
       from jsonb_to_recordset(?::jsonb) as r(id text, conversation_id text, ordinal int, title text, summary text, ingested_at timestamptz)
       on conflict (conversation_id, ordinal) do update set
         title = excluded.title,
         summary = excluded.summary,
         ingested_at = excluded.ingested_at,
         cluster_id = case when conversation_issues.title = excluded.title and conversation_issues.summary = excluded.summary
                           then conversation_issues.cluster_id end,
         embedding = case when conversation_issues.title = excluded.title and conversation_issues.summary = excluded.summary
                          then conversation_issues.embedding end,
         embedding_model = case when conversation_issues.title = excluded.title and conversation_issues.summary = excluded.summary
                                then conversation_issues.embedding_model end
       returning id, title, summary, cluster_id, embedding, embedding_model`,
      [organizationId, now.toISOString(), JSON.stringify(found)],
    );
    const vectors = await embedNew(tx, written, opts.ai);
    // New and changed issues (no cluster): into their nearest cluster now, and counted towards the next re-clustering.
    const unplaced: IssueToPlace[] = written
      .filter((i) => i.cluster_id === null)
      .map(({ id, title, summary, embedding, embedding_model }) => {
        const fresh = vectors.get(id);
        if (fresh) return { id, title, summary, embedding: fresh, embeddingModel: opts.ai!.embeddingsModel };
        return { id, title, summary, embedding: embedding && embeddingOf(embedding), embeddingModel: embedding_model };
      });
    await placeIssues(tx, organizationId, unplaced, now);
    if (await noteNewIssues(tx, organizationId, unplaced.length, now, opts.reclusterDue !== undefined)) opts.reclusterDue?.(tx);
  }
  await tx.execute(`update conversations set processed_at = ? where id in (?)`, [now, rows.map((r) => r.id)]);
  return { conversations: rows.length, issues: found.length };
}

/**
 * Embeds and stores the batch's issues without a vector of the configured model (new and
 * changed ones: the upsert cleared theirs). Answers the new vectors by issue id; none
 * when no model is configured or the endpoint failed (it logged why).
 */
async function embedNew(
  tx: EntityManager,
  issues: Array<{ id: string; title: string; summary: string; embedding_model: string | null }>,
  ai: Embeddings | undefined,
): Promise<Map<string, Float32Array>> {
  const model = ai?.embeddingsModel;
  const missing = model ? issues.filter((i) => i.embedding_model !== model) : [];
  const vectors = missing.length ? await ai!.embedTexts(missing.map(issueText)) : null;
  if (!vectors) return new Map();
  await writeEmbeddings(tx, model!, missing, vectors);
  return new Map(missing.map((issue, i) => [issue.id, vectors[i]!]));
}
