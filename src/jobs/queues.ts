/**
 * One queue per job family, so operators can watch and scale each on its own. These
 * names are stored in Redis keys and outbox rows: never rename one, add a new one. A
 * queue is listed only once a job runs on it (a family's queue comes with its first job).
 */
export const QUEUES = ['maintenance', 'imports', 'openapi', 'search', 'conversations', 'translations', 'exports'] as const;
export type QueueName = (typeof QUEUES)[number];

export function isQueueName(name: string): name is QueueName {
  return (QUEUES as readonly string[]).includes(name);
}
