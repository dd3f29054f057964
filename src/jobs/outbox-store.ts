import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntry, type ParkCode } from '../domain/entities/outbox-entry.entity.ts';
import type { Enqueueable } from './producer.ts';

export type OutboxRow = Enqueueable & { createdAt: Date; enqueuedAt: Date | null };

/** The two scans over the outbox: rows still to enqueue, and enqueued rows to check against Redis. */
const SCANS = {
  relay: { where: 'enqueued_at is null and parked_at is null and created_at < ?', order: 'created_at' },
  reconcile: { where: 'enqueued_at < ? and parked_at is null', order: 'enqueued_at' },
} as const;

export type ClaimOptions = {
  /** Rows older than this (created for the relay, enqueued for the reconciler). */
  before: Date;
  now: Date;
  leaseMs: number;
  limit: number;
  /** Only these rows (tests share the table with other files); all rows when absent. */
  ids?: readonly string[];
};

/**
 * Claims up to `limit` rows for `leaseMs` in one statement, so its row locks last only as
 * long as it does: the Redis calls that follow hold no lock, and another relay or
 * reconciler skips the claimed rows until the lease ends (a claimer that died loses them
 * then). SKIP LOCKED lets any number of claimers run at once.
 */
export async function claimRows(em: EntityManager, scan: keyof typeof SCANS, opts: ClaimOptions): Promise<OutboxRow[]> {
  if (opts.ids?.length === 0) return [];
  const { where, order } = SCANS[scan];
  const only = opts.ids ? ` and id in (${opts.ids.map(() => '?').join(', ')})` : '';
  const rows = await em.execute<RawRow[]>(
    `update job_outbox set claimed_until = ? where id in (
       select id from job_outbox where ${where} and (claimed_until is null or claimed_until < ?)${only}
       order by ${order} limit ? for update skip locked)
     returning id, queue, name, payload, delay_ms, created_at, enqueued_at`,
    [new Date(opts.now.getTime() + opts.leaseMs), opts.before, opts.now, ...(opts.ids ?? []), opts.limit],
  );
  const key = scan === 'relay' ? 'created_at' : 'enqueued_at';
  return rows
    .sort((a, b) => new Date(a[key]!).getTime() - new Date(b[key]!).getTime())
    .map((r) => ({ id: r.id, queue: r.queue, name: r.name, payload: r.payload, delayMs: r.delay_ms, createdAt: new Date(r.created_at), enqueuedAt: r.enqueued_at ? new Date(r.enqueued_at) : null }));
}

type RawRow = { id: string; queue: string; name: string; payload: Record<string, unknown>; delay_ms: number; created_at: Date | string; enqueued_at: Date | string | null };

/** The rows' jobs are in their queues now; their claims end. */
export async function markEnqueued(em: EntityManager, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length) await em.nativeUpdate(OutboxEntry, { id: { $in: [...ids] } }, { enqueuedAt: now, claimedUntil: null });
}

/** Claims given up early (Redis stopped answering): the next pass may take the rows at once. */
export async function releaseClaims(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length) await em.nativeUpdate(OutboxEntry, { id: { $in: [...ids] } }, { claimedUntil: null });
}

/** Sets a row aside with its reason: no pass takes it again until an operator retries it. */
export async function parkRow(em: EntityManager, id: string, code: ParkCode, reason: string, now: Date): Promise<void> {
  await em.nativeUpdate(OutboxEntry, { id }, { parkedAt: now, parkCode: code, parkReason: reason.slice(0, 2000), claimedUntil: null });
}

/**
 * Rows parked because no job of their name was declared, whose name this release declares:
 * back to the relay. During a rolling deploy an older relay parks the rows of a job only
 * the new release knows; the new release's relays take them up without an operator.
 */
export async function unparkDeclared(em: EntityManager, names: readonly string[], ids?: readonly string[]): Promise<number> {
  if (names.length === 0 || ids?.length === 0) return 0;
  const where = { parkCode: 'unknown-job' as const, name: { $in: [...names] }, ...(ids ? { id: { $in: [...ids] } } : {}) };
  return em.nativeUpdate(OutboxEntry, where, { parkedAt: null, parkCode: null, parkReason: null });
}

/** Outbox rows use the job's id; other jobs (schedule ticks: `tick-…`) have no row. */
const OUTBOX_ID = /^[0-9A-Za-z]{20}$/;

/** The job of this id finished (completed, or failed for good after its hook): its record goes. */
export async function finishRow(em: EntityManager, jobId: string | undefined): Promise<void> {
  if (jobId && OUTBOX_ID.test(jobId)) await em.nativeDelete(OutboxEntry, { id: jobId });
}

export async function deleteRows(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length) await em.nativeDelete(OutboxEntry, { id: { $in: [...ids] } });
}
