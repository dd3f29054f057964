/**
 * Lock and stalled-job settings for every worker process. BullMQ only recovers stalled
 * jobs predictably when all workers of a queue agree on them, so they derive from one
 * configured period (JOB_LOCK_MS) and nothing else.
 */
export function workerLockSettings(lockMs: number) {
  return {
    /** A job whose worker stops renewing its lock for this long is considered stalled. */
    lockDuration: lockMs,
    stalledInterval: lockMs,
    /** A job may stall this many times (its worker killed) before it fails for good. */
    maxStalledCount: 2,
  };
}

export const RELAY_INTERVAL_MS = 5_000;
export const RELAY_GRACE_MS = 10_000;
export const RELAY_BATCH_SIZE = 500;
