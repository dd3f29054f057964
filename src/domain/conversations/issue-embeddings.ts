import { endianness } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AiServices } from '../ai/ai-services.ts';
import { normalizeRows } from './clustering/dense.ts';
import { issueText } from './place-issues.ts';

/** What clustering needs of the AI services to use embeddings (ai-services.ts). */
export type Embeddings = Pick<AiServices, 'embedTexts' | 'embeddingsModel'>;

/** Issues embedded per round trip of a re-clustering's catch-up, each chunk written (autocommit) before the next. */
export const EMBED_CHUNK = 1000;

const LITTLE_ENDIAN = endianness() === 'LE';

/** The column's form of a vector: float32, little-endian. */
export function embeddingBytes(vector: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const out = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => out.writeFloatLE(v, i * 4));
  return out;
}

/** A stored vector back (a copy: bytes from the driver need not be aligned for a Float32Array). */
export function embeddingOf(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length >> 2);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 4));
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

type IssueText = { id: string; title: string; summary: string };

/**
 * Stores each issue's vector unless its text changed since it was read: a re-ingest that
 * rewrote it cleared its embedding, and a vector of the older text must not come back.
 */
export async function writeEmbeddings(em: EntityManager, model: string, issues: IssueText[], vectors: Float32Array[]): Promise<void> {
  if (issues.length === 0) return;
  const rows = issues.map((issue, i) => ({ id: issue.id, title: issue.title, summary: issue.summary, e: embeddingBytes(vectors[i]!).toString('base64') }));
  await em.execute(
    `update conversation_issues i set embedding = decode(r.e, 'base64'), embedding_model = ?
     from jsonb_to_recordset(?::jsonb) as r(id text, title text, summary text, e text)
     where i.id = r.id and i.title = r.title and i.summary = r.summary`,
    [model, JSON.stringify(rows)],
  );
}

/**
 * Embeds the organization's issues that have no vector of the configured model (new ones,
 * changed ones, or all after a change of model), EMBED_CHUNK at a time, each chunk written
 * on its own (autocommit): a re-clustering runs this before its transaction, so no lock is
 * held across a network call. Stops at the first failure (the endpoint logged it): the run
 * then clusters without embeddings. Answers whether every issue read got its vector.
 */
export async function embedMissing(em: EntityManager, organizationId: string, embeddings: Embeddings): Promise<boolean> {
  const model = embeddings.embeddingsModel;
  if (!model) return false;
  for (let after = ''; ; ) {
    const chunk = await em.execute<IssueText[]>(
      `select id, title, summary from conversation_issues
       where organization_id = ? and embedding_model is distinct from ? and id > ? order by id limit ?`,
      [organizationId, model, after, EMBED_CHUNK],
    );
    if (chunk.length === 0) return true;
    const vectors = await embeddings.embedTexts(chunk.map(issueText));
    if (!vectors) return false;
    await writeEmbeddings(em, model, chunk, vectors);
    after = chunk.at(-1)!.id;
  }
}

/**
 * The issues' stored vectors of `model` as one matrix of unit rows (n × dims), for
 * clusterTexts; or why there is none (some issue has no vector of the model, or sizes differ).
 */
export function embeddingMatrix(model: string, stored: Array<Uint8Array | null>): { vectors: { model: string; dims: number; data: Float32Array } } | { reason: string } {
  const missing = stored.filter((bytes) => !bytes).length;
  if (missing) return { reason: `${missing} of ${stored.length} issues have no embedding of ${model}` };
  const dims = (stored[0]?.length ?? 0) >> 2;
  if (dims === 0 || stored.some((bytes) => bytes!.length !== dims * 4)) return { reason: `embeddings of ${model} differ in size` };
  const data = new Float32Array(stored.length * dims);
  stored.forEach((bytes, i) => data.set(embeddingOf(bytes!), i * dims));
  return { vectors: { model, dims, data: normalizeRows(data, dims) } };
}
