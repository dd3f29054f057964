import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClusterModel } from './clustering/cluster-model.ts';
import { decodeClusterModel, decodedSize } from './cluster-model-codec.ts';

/** An organization's current model with the cluster id of each of its clusters. */
export type CurrentModel = { version: number; model: ClusterModel; clusterIds: string[] };

/**
 * Decoded models per process, least recently used first out. Keyed by (organization,
 * version): a re-clustering writes a new version, so an entry is never stale, only unused.
 * Bounded by entries and by an estimate of their memory (a 100k-issue model is ~25 MB).
 */
export class ModelCache {
  private readonly entries = new Map<string, { current: CurrentModel; bytes: number }>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(maxEntries: number, maxBytes: number) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get(organizationId: string, version: number): CurrentModel | undefined {
    const key = `${organizationId}@${version}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.current;
  }

  set(organizationId: string, current: CurrentModel): void {
    const key = `${organizationId}@${current.version}`;
    const bytes = decodedSize(current.model);
    this.delete(key);
    this.entries.set(key, { current, bytes });
    this.bytes += bytes;
    // The newest entry always stays, even alone over budget: placing needs it now.
    for (const [oldest] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes)) break;
      this.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

export const modelCache = new ModelCache(16, 256 * 1024 * 1024);

/**
 * The organization's current model, decoded once per process and version. Null before
 * its first re-clustering. Runs on `em`'s connection: inside a transaction it reads that
 * transaction's view, so the version and the cluster ids always belong together.
 */
export async function currentModel(em: EntityManager, organizationId: string, cache = modelCache): Promise<CurrentModel | null> {
  const [state] = await em.execute<Array<{ version: number; has_model: boolean }>>(
    'select version, model is not null as has_model from conversation_clusterings where organization_id = ?',
    [organizationId],
  );
  if (!state?.has_model) return null;
  const cached = cache.get(organizationId, state.version);
  if (cached) return cached;
  const [row] = await em.execute<Array<{ version: number; model: Buffer; cluster_ids: string[] }>>(
    'select version, model, cluster_ids from conversation_clusterings where organization_id = ? and version = ? and model is not null',
    [organizationId, state.version],
  );
  if (!row) return null;
  const current = { version: row.version, model: decodeClusterModel(row.model), clusterIds: row.cluster_ids };
  cache.set(organizationId, current);
  return current;
}
