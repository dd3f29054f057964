import type { EntityManager } from '@mikro-orm/postgresql';
import { TranslationRun } from '../entities/translation-run.entity.ts';
import { Translation } from '../entities/translation.entity.ts';
import { queueFollowUp } from './commit-result.ts';
import { ProviderError } from './provider.ts';
import { lockTranslation, type ScheduleRun } from './request-run.ts';

/** A run that cannot go on whatever the provider does: its source space is in the bin, gone, or in another organization now. */
export class SourceUnavailableError extends Error {
  readonly code = 'SOURCE_UNAVAILABLE';
  constructor(spaceId: string) {
    super(`The source space ${spaceId} is deleted or no longer in this organization`);
    this.name = 'SourceUnavailableError';
  }
}

/** A failure that no retry can mend: the run fails at once instead of retrying. */
export function isPermanentRunError(err: unknown): err is ProviderError | SourceUnavailableError {
  if (err instanceof SourceUnavailableError) return true;
  return err instanceof ProviderError && (err.code === 'AUTH_FAILED' || err.code === 'QUOTA_EXCEEDED' || err.code === 'UNSUPPORTED_LANGUAGE');
}

/**
 * Ends a run that failed for good, under the translation's lock: the run records the code
 * and message, the translation returns to the status it had before (`completed` once a run
 * has completed, else `pending`) with the failure in `lastRun`, and its result space and
 * revision stay as the last good run left them. A follow-up asked for meanwhile still runs.
 * A run that already ended is left alone (the hook may run twice).
 */
export async function failRun(
  em: EntityManager,
  ids: { translationId: string; runId: string },
  error: Error,
  opts: { now: Date; schedule: ScheduleRun; finishIn?: (tx: EntityManager) => Promise<void> },
): Promise<boolean> {
  return em.transactional(async (tx) => {
    await lockTranslation(tx, ids.translationId);
    const translation = await tx.findOne(Translation, { id: ids.translationId }, { refresh: true });
    const run = await tx.findOne(TranslationRun, { id: ids.runId, translation: ids.translationId }, { refresh: true });
    if (!translation || !run || (run.status !== 'queued' && run.status !== 'running')) return false;
    const failure = { code: errorCode(error), message: error.message.slice(0, 2000) };
    Object.assign(run, { status: 'failed', finishedAt: opts.now, errorCode: failure.code, errorMessage: failure.message });
    Object.assign(translation, {
      status: translation.runs > 0 ? 'completed' : 'pending',
      lastRun: {
        run: run.id,
        outcome: 'failed',
        startedAt: (run.startedAt ?? run.createdAt).toISOString(),
        finishedAt: opts.now.toISOString(),
        error: failure,
      },
    });
    await tx.flush();
    await queueFollowUp(tx, translation, opts);
    await opts.finishIn?.(tx);
    return true;
  });
}

/** The provider's code; `INTERNAL` for anything else (the message says what). */
function errorCode(error: Error): string {
  // By name as well: an error carried across a process boundary is no longer the class.
  const named = error instanceof ProviderError || error instanceof SourceUnavailableError || error.name === 'ProviderError' || error.name === 'SourceUnavailableError';
  return named ? ((error as { code?: string }).code ?? 'INTERNAL') : 'INTERNAL';
}
