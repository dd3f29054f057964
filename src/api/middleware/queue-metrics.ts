import { Gauge, type Registry } from 'prom-client';
import type { QueueProducer } from '../../jobs/producer.ts';
import { queueStats } from '../../jobs/queue-stats.ts';

/** Queue depth gauges, read from Redis when Prometheus scrapes (the same figures as `bin/vellum queues`). */
export function registerQueueMetrics(registry: Registry, producer: QueueProducer) {
  const oldest = new Gauge({
    name: 'vellum_queue_oldest_waiting_seconds',
    help: 'Age of the oldest waiting job per queue',
    labelNames: ['queue'] as const,
    registers: [],
  });
  // Registered first and filled in its own collect, which the registry runs before
  // serializing it; the second gauge is filled by the same read.
  const jobs = new Gauge({
    name: 'vellum_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      let stats;
      try {
        stats = await queueStats(producer);
      } catch {
        return; // Redis unreachable: /readyz says so; the gauges keep their last values.
      }
      for (const s of stats) {
        for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed'] as const) {
          this.set({ queue: s.queue, state }, s[state]);
        }
        oldest.set({ queue: s.queue }, s.oldestWaitingSeconds);
      }
    },
  });
  registry.registerMetric(oldest);
  return { jobs, oldest };
}
