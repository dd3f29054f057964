import type { Job, Queue } from 'bullmq';

/**
 * A stalled run counts as a failed attempt.
 *
 * How BullMQ 6 counts them: `attemptsMade` grows only when a processor throws (moveToFailed).
 * A worker that dies mid-job throws nothing: its lock expires, a stalled check moves the
 * job back to `wait` and increments `stalledCounter` instead — no attempt used, no backoff.
 * When `stalledCounter` passes `maxStalledCount`, the check marks the job with a deferred
 * failure and the next worker fails it with an UnrecoverableError *without calling the
 * processor*. A job killed three times therefore failed for good with retries unused, and
 * no code of ours ran for it (its final-failure hook now runs from the `failed` event).
 *
 * So the first time a worker picks up a job whose `stalledCounter` grew, it fails that
 * pickup as the attempt the dead worker could not fail: BullMQ then applies the job's own
 * attempts and backoff exactly as for a thrown error, and when none remain the job fails
 * for good and its hook runs. `maxStalledCount` stays above every job's attempts (settings.ts)
 * as a mere backstop. The job's log (kept and removed with the job) records each stall
 * counted, because a retry does not reset `stalledCounter`.
 */
export class StalledAttemptError extends Error {
  override name = 'StalledAttemptError';
}

const COUNTED = /^stall (\d+) counted as failed attempt/;

/** Throws StalledAttemptError when `job` stalled since the last time a stall was counted. */
export async function failAttemptIfStalled(job: Job, queue: Queue): Promise<void> {
  if (!job.stalledCounter) return;
  const { logs } = await queue.getJobLogs(job.id!);
  const counted = Math.max(0, ...logs.map((line) => Number(COUNTED.exec(line)?.[1] ?? 0)));
  if (job.stalledCounter <= counted) return;
  const attempt = job.attemptsMade + 1;
  await job.log(`stall ${job.stalledCounter} counted as failed attempt ${attempt}`);
  throw new StalledAttemptError(`Attempt ${attempt} did not finish: the worker running it stopped (killed, or blocked past its lock)`);
}
