import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntry } from '../domain/entities/outbox-entry.entity.ts';

/** Parked rows of one job name: what operators watch (`bin/vellum queues`, metrics). */
export type ParkedGroup = { queue: string; name: string; count: number; oldestParkedSeconds: number; reason: string };

export type ParkedRow = { id: string; queue: string; name: string; payload: Record<string, unknown>; createdAt: Date; parkedAt: Date; reason: string };

export async function parkedSummary(em: EntityManager, now: Date = new Date()): Promise<ParkedGroup[]> {
  const rows = await em.execute<Array<{ queue: string; name: string; count: number; oldest: Date | string; reason: string }>>(
    `select queue, name, count(*)::int as count, min(parked_at) as oldest, (array_agg(park_reason order by parked_at))[1] as reason
       from job_outbox where parked_at is not null group by queue, name order by queue, name`,
  );
  return rows.map((r) => ({
    queue: r.queue,
    name: r.name,
    count: r.count,
    oldestParkedSeconds: Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 100) / 10),
    reason: r.reason,
  }));
}

export async function listParked(em: EntityManager, limit = 1000): Promise<ParkedRow[]> {
  const rows = await em.find(OutboxEntry, { parkedAt: { $ne: null } }, { orderBy: { parkedAt: 'asc' }, limit });
  return rows.map((r) => ({ id: r.id, queue: r.queue, name: r.name, payload: r.payload, createdAt: r.createdAt, parkedAt: r.parkedAt!, reason: r.parkReason ?? '' }));
}

/**
 * Hands parked rows back to the relay (after a fix was deployed: the job name is known
 * again, the payload parses); a row that still cannot be enqueued is parked again.
 * Returns how many rows it released.
 */
export async function retryParked(em: EntityManager, which: { id: string } | 'all'): Promise<number> {
  const where = which === 'all' ? { parkedAt: { $ne: null } } : { id: which.id, parkedAt: { $ne: null } };
  return em.nativeUpdate(OutboxEntry, where, { parkedAt: null, parkCode: null, parkReason: null, claimedUntil: null });
}

/** Gives up a parked row's job for good. Only parked rows: a live row is the record of work still owed. */
export async function dropParked(em: EntityManager, id: string): Promise<boolean> {
  return (await em.nativeDelete(OutboxEntry, { id, parkedAt: { $ne: null } })) > 0;
}
