import { Gauge, type Registry } from 'prom-client';
import type { Orm } from '../../domain/orm.ts';
import { parkedSummary, type ParkedGroup } from '../../jobs/outbox-parked.ts';

const READ_TTL_MS = 1000;

/** Parked outbox rows per queue and job name (the figures of `bin/vellum queues`): work no relay will enqueue until an operator acts. */
export function registerOutboxMetrics(registry: Registry, orm: Orm) {
  let last: { at: number; read: Promise<ParkedGroup[] | null> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > READ_TTL_MS) last = { at: Date.now(), read: parkedSummary(orm.em.fork()).catch(() => null) };
    return last.read;
  };
  const collect = (pick: (g: ParkedGroup) => number) =>
    async function (this: Gauge<'queue' | 'name'>) {
      const groups = await read();
      if (!groups) return; // the database is unreachable (/readyz says so): keep the last values
      // Groups that were retried or dropped disappear rather than stay at their last value.
      this.reset();
      for (const g of groups) this.set({ queue: g.queue, name: g.name }, pick(g));
    };
  new Gauge({
    name: 'vellum_outbox_parked_rows',
    help: 'Outbox rows parked because they cannot be enqueued, per queue and job name',
    labelNames: ['queue', 'name'] as const,
    registers: [registry],
    collect: collect((g) => g.count),
  });
  new Gauge({
    name: 'vellum_outbox_parked_oldest_seconds',
    help: 'Age of the oldest parked outbox row, per queue and job name',
    labelNames: ['queue', 'name'] as const,
    registers: [registry],
    collect: collect((g) => g.oldestParkedSeconds),
  });
}
