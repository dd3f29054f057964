import { Gauge, type Registry } from 'prom-client';
import type { QueueProducer } from '../../jobs/producer.ts';
import { queueStats, type QueueStats } from '../../jobs/queue-stats.ts';

/** How long one Redis read serves scrapes: both gauges of a scrape share it. */
const READ_TTL_MS = 1000;

/** Queue depth gauges, read from Redis when Prometheus scrapes (the same figures as `bin/vellum queues`). */
export function registerQueueMetrics(registry: Registry, producer: QueueProducer) {
  let last: { at: number; read: Promise<QueueStats[] | null> } | null = null;
  // prom-client collects all metrics concurrently, so each gauge awaits the same read.
  const read = () => {
    if (!last || Date.now() - last.at > READ_TTL_MS) {
      last = { at: Date.now(), read: queueStats(producer).catch(() => null) };
    }
    return last.read;
  };
  new Gauge({
    name: 'vellum_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      // null: Redis is unreachable (/readyz says so); the gauge keeps its last values.
      for (const s of (await read()) ?? []) {
        for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed'] as const) {
          this.set({ queue: s.queue, state }, s[state]);
        }
      }
    },
  });
  new Gauge({
    name: 'vellum_queue_oldest_waiting_seconds',
    help: 'Age of the oldest waiting job per queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const s of (await read()) ?? []) this.set({ queue: s.queue }, s.oldestWaitingSeconds);
    },
  });
}
