import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

/** Records the job that executes a queued run, in the transaction that queued it (the jobs layer supplies it). */
export type ScheduleRun = (tx: EntityManager, run: { translationId: string; runId: string }) => void;

/**
 * Asks for a run of a translation, in one transaction: a new queued run (and its job) when
 * none is queued or running, else the one follow-up run the live one starts when it ends.
 * The translation row's lock orders this with the run's own last transaction (which reads
 * and clears `followUp` under the same lock), so an ask is never lost between the two; the
 * partial unique index `translation_runs_one_live` is what makes the insert exclusive.
 */
export async function requestRun(em: EntityManager, translationId: string, schedule: ScheduleRun): Promise<'queued' | 'follow-up'> {
  return em.transactional(async (tx) => {
    // Deleted since the caller loaded it: the same 404 as for an unknown id.
    if (!(await lockTranslation(tx, translationId))) throw notFound('Translation');
    const runId = await insertQueuedRun(tx, translationId);
    if (runId) {
      schedule(tx, { translationId, runId });
      return 'queued';
    }
    await tx.execute('update translations set follow_up = true where id = ?', [translationId]);
    return 'follow-up';
  });
}

/** Inserts a queued run unless one is live; its id, or null when one is. Call under the translation's lock. */
export async function insertQueuedRun(tx: EntityManager, translationId: string): Promise<string | null> {
  const rows = await tx.execute<{ id: string }[]>(
    `insert into translation_runs (id, translation_id, status, created_at, pages, words, rejected)
     values (?, ?, 'queued', now(), 0, 0, '[]') on conflict do nothing returning id`,
    [newId(), translationId],
  );
  return rows[0]?.id ?? null;
}

/** `for update` on the transaction's own connection: held until it ends. False when there is no such translation. */
export async function lockTranslation(tx: EntityManager, translationId: string): Promise<boolean> {
  return (await tx.execute('select id from translations where id = ? for update', [translationId])).length > 0;
}
