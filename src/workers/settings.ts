/**
 * Lock and stalled-job settings for every worker process. BullMQ only recovers stalled
 * jobs predictably when all workers of a queue agree on them, so they derive from one
 * configured period (JOB_LOCK_MS) and nothing else.
 *
 * The trade-off: a worker that dies (SIGKILL, OOM, lost machine) leaves its job `active`
 * until its lock expires (at most `lockMs` after the last renewal) and the next stalled
 * check sees it (checks run every `lockMs / 2`, shared by all workers of the queue). So a
 * killed worker's job is back in `wait` within lockMs + lockMs / 2 (22.5 s at the default
 * 15 s). A shorter lock recovers faster, but a handler that blocks the event loop for more
 * than about half of `lockMs` (locks are renewed every lockMs / 4 to lockMs / 2) loses its
 * lock and the job runs twice; handlers are idempotent, so that costs work, not correctness.
 * A worker stopped with SIGTERM does not wait for this: it releases what it cannot finish.
 */
export function workerLockSettings(lockMs: number) {
  return {
    lockDuration: lockMs,
    /** BullMQ renews each active job's lock every lockRenewTime / 2. */
    lockRenewTime: lockMs / 2,
    stalledInterval: Math.max(500, Math.round(lockMs / 2)),
    /**
     * Only a backstop. Each stall is counted as a failed attempt of the job itself (see
     * stall-attempts.ts), so the job's own `attempts` decides when a job that keeps killing
     * its worker fails for good; BullMQ's own limit fails a job without running any of our
     * code first, so it must stay above every job's attempts.
     */
    maxStalledCount: MAX_STALLS_BACKSTOP,
  };
}

/** Above the attempts of every declared job (define-job.ts checks it). */
export const MAX_STALLS_BACKSTOP = 20;

/** Time a stopping worker keeps for releasing jobs and closing its connections after the drain. */
export const RELEASE_MARGIN_MS = 1000;

/** A job name this worker does not know waits for a newer worker: 5 s, doubling, at most 5 min. */
export const UNKNOWN_JOB_RETRY = { firstMs: 5000, maxMs: 5 * 60_000 };

/**
 * The stranded-record sweep: records left in a non-final state whose job is gone. Only
 * records older than the grace are looked at, so a job still on its way (outbox, relay)
 * is never mistaken for a lost one.
 */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
export const SWEEP_GRACE_MS = 15 * 60_000;
export const SWEEP_BATCH_SIZE = 200;

export const RELAY_INTERVAL_MS = 5_000;
export const RELAY_GRACE_MS = 10_000;
export const RELAY_BATCH_SIZE = 500;

/**
 * The reconciler: enqueued outbox rows whose job Redis no longer holds are enqueued again.
 * Each pass checks the rows last seen in their queue longest ago, so with a backlog of N
 * live jobs each is looked at about every N / batch passes.
 */
export const RECONCILE_INTERVAL_MS = 30_000;
export const RECONCILE_GRACE_MS = 60_000;
export const RECONCILE_BATCH_SIZE = 500;

/** How long a relay or reconciler keeps the rows it claimed: longer than a batch takes. */
export const OUTBOX_LEASE_MS = 60_000;

/** How often a scheduler checks for ticks missed while Redis was unreachable (and once at start). */
export const SCHEDULE_CATCH_UP_INTERVAL_MS = 30_000;
