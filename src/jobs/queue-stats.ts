import type { QueueProducer } from './producer.ts';
import { QUEUES } from './queues.ts';

export type QueueStats = {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  /** Seconds the oldest waiting job has waited; 0 when none waits. */
  oldestWaitingSeconds: number;
};

/** What operators watch per queue: backlog, work in flight and failures. */
export async function queueStats(producer: QueueProducer, now: Date = new Date()): Promise<QueueStats[]> {
  return Promise.all(
    QUEUES.map(async (name) => {
      const queue = producer.queue(name);
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
      const [oldest] = await queue.getJobs(['waiting'], 0, 0, true);
      const oldestWaitingSeconds = oldest ? Math.max(0, (now.getTime() - oldest.timestamp) / 1000) : 0;
      return {
        queue: name,
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        completed: counts.completed ?? 0,
        oldestWaitingSeconds: Math.round(oldestWaitingSeconds * 10) / 10,
      };
    }),
  );
}
