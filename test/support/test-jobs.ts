import { Redis } from 'ioredis';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/define-job.ts';
import { testRedisUrl } from './test-env.ts';

let redis: Redis | undefined;
/** Where test jobs leave their marks, so a test (or another process) can see each run. */
export function marks(): Redis {
  redis ??= new Redis(testRedisUrl());
  return redis;
}

/**
 * Counts its runs and marks itself done after `sleepMs`. Idempotent by design: running
 * it again after a crash only repeats the count, never the effect.
 */
export const recordJob = defineJob({
  name: 'test.record',
  queue: 'maintenance',
  payload: z.object({ key: z.string().min(1), sleepMs: z.number().int().min(0).default(0) }),
  retry: { attempts: 3, backoff: { type: 'fixed', delay: 100 } },
  async handle({ key, sleepMs }) {
    await marks().incr(`${key}:runs`);
    if (sleepMs) await new Promise((r) => setTimeout(r, sleepMs));
    await marks().set(`${key}:done`, '1');
    return { key };
  },
});

export const testJobs = [recordJob];

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Test workers run no relay or reconciler passes of their own: the outbox table is shared
 * by every test file running in parallel, each with its own queue prefix, so a pass over
 * the whole table would move other files' jobs into this file's queues. Tests that need a
 * pass call `relayOnce` / `reconcileOnce` scoped to their own rows.
 */
export const NO_OUTBOX_PASSES = { relayIntervalMs: 3_600_000, reconcileIntervalMs: 3_600_000 } as const;
