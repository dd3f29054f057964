import { UsageError } from '../cli/cli-error.ts';
import { isQueueName, QUEUES, type QueueName } from '../jobs/queues.ts';

/** `--queues a,b`: which queues this process consumes (all when absent). */
export function parseQueues(value: string | undefined): QueueName[] {
  if (!value) return [...QUEUES];
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isQueueName(n));
  if (unknown.length || names.length === 0) {
    throw new UsageError(`--queues takes names from: ${QUEUES.join(', ')} (got "${value}")`);
  }
  return [...new Set(names)] as QueueName[];
}

/**
 * `--concurrency N` for every queue, or per queue: `--concurrency imports=2,openapi=1,4`
 * (a bare number is the default for the rest).
 */
export function parseConcurrency(value: string | undefined, fallback: number): Partial<Record<QueueName, number>> & { default: number } {
  const result: Partial<Record<QueueName, number>> & { default: number } = { default: fallback };
  if (!value) return result;
  for (const part of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, count] = part.includes('=') ? part.split('=') : [undefined, part];
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError(`--concurrency: "${part}" is not a count from 1 to 1000`);
    if (name === undefined) result.default = n;
    else if (isQueueName(name)) result[name] = n;
    else throw new UsageError(`--concurrency: unknown queue "${name}"`);
  }
  return result;
}
