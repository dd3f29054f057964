import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OpenApiSpecVersion } from '../entities/openapi-spec-version.entity.ts';
import { OpenApiSpec, type ProcessErrorCode } from '../entities/openapi-spec.entity.ts';
import type { GuardedHttp } from '../net/guarded-http.ts';
import { newId } from '../shared/ids.ts';
import { DEFAULT_BUNDLE_LIMITS, loadBundle, type BundleLimits, type Problem } from './load-bundle.ts';
import { validateInWorker } from './parse-pool.ts';

export type ProcessOutcome = 'missing' | 'unchanged' | 'new-version' | 'same-content' | 'failed' | 'superseded';

const MAX_ERRORS = 50;

/**
 * Fetches, parses, validates and versions one specification. A version is stored only when
 * the bundle's canonical content changed; a failure records its code and errors and keeps
 * serving the last good version. If the source changed while this ran, the result is
 * dropped: the job queued by that change processes the new source.
 */
export async function processSpec(em: EntityManager, http: GuardedHttp, specId: string, now: () => Date, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<ProcessOutcome> {
  const spec = await em.findOne(OpenApiSpec, { id: specId });
  if (!spec) return 'missing';
  const source = spec.sourceUrl ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' };
  const sourceKey = JSON.stringify(source);
  spec.processingState = 'progress';
  await em.flush();

  const bundle = await loadBundle(http, source, spec.sourceUrl ? spec.fetchState : {}, limits);
  if (bundle.kind === 'unchanged') return finish(em, specId, sourceKey, now(), {}, 'unchanged');
  if (bundle.kind === 'failed') return finish(em, specId, sourceKey, now(), { code: bundle.code, errors: bundle.errors }, 'failed');
  const checked = await validateInWorker({ entry: bundle.entry, files: bundle.files, aliases: bundle.aliases });
  if (!checked.valid) return finish(em, specId, sourceKey, now(), { code: 'PARSE_ERROR', errors: checked.errors }, 'failed');

  return finish(em, specId, sourceKey, now(), {}, 'same-content', async (tx, locked) => {
    const latest = await tx.findOne(OpenApiSpecVersion, { spec: locked }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    locked.fetchState = bundle.fetchState;
    if (latest?.contentHash === checked.hash) return 'same-content';
    // Inserted from the worker's canonical text: the main thread never serializes the document.
    const id = newId();
    await tx.execute('insert into openapi_spec_versions (id, spec_id, content_hash, entry, filesystem, created_at) values (?, ?, ?, ?, ?::jsonb, ?)', [
      id,
      locked.id,
      checked.hash,
      bundle.entry,
      checked.filesystem,
      now(),
    ]);
    locked.lastVersion = id;
    return 'new-version';
  });
}

/** Records the outcome under a row lock, unless the source changed meanwhile. */
async function finish(
  em: EntityManager,
  specId: string,
  sourceKey: string,
  at: Date,
  error: { code?: ProcessErrorCode; errors?: Problem[] },
  outcome: ProcessOutcome,
  store?: (tx: EntityManager, spec: OpenApiSpec) => Promise<ProcessOutcome>,
): Promise<ProcessOutcome> {
  return em.fork().transactional(async (tx) => {
    const spec = await tx.findOne(OpenApiSpec, { id: specId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!spec) return 'missing';
    const current = JSON.stringify(spec.sourceUrl ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' });
    if (current !== sourceKey) return 'superseded';
    const result = store ? await store(tx, spec) : outcome;
    spec.processingState = 'complete';
    spec.lastProcessedAt = at;
    spec.lastProcessErrorCode = error.code ?? null;
    spec.lastProcessedErrors = (error.errors ?? []).slice(0, MAX_ERRORS);
    return result;
  });
}
