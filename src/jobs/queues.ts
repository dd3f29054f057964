/**
 * One queue per job family, so operators can watch and scale each on its own. These
 * names are stored in Redis keys and outbox rows: never rename one, add a new one.
 */
export const QUEUES = ['maintenance', 'imports', 'openapi', 'translations', 'conversations', 'exports', 'webhooks', 'search'] as const;
export type QueueName = (typeof QUEUES)[number];

export function isQueueName(name: string): name is QueueName {
  return (QUEUES as readonly string[]).includes(name);
}

/** The Redis key prefix of every queue; tests use their own so runs never meet. */
export const DEFAULT_QUEUE_PREFIX = 'vellum';
