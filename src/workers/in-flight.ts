import { type Job, WaitingError } from 'bullmq';
import type { Logger } from 'pino';

export type Flight = {
  job: Job;
  token: string;
  /** Handed to the handler as `ctx.signal`. */
  signal: AbortSignal;
  /** Runs the handler; rejects with WaitingError once the job was handed back to the queue. */
  run<T>(handler: () => Promise<T>): Promise<T>;
};

type Entry = Flight & { release(log: Logger): Promise<void> };

/**
 * The jobs this process is running, so a stopping worker can hand back what it cannot
 * finish within its drain budget: each goes back to `wait` (at the head, so another worker
 * takes it at once, with no attempt used) and its handler's signal is aborted. Without
 * this, a job of a worker given SIGTERM stays locked until the process dies and then
 * waits out the lock and a stalled check.
 */
export class InFlightJobs {
  private readonly entries = new Set<Entry>();

  start(job: Job, token: string): Flight {
    const controller = new AbortController();
    let released = false;
    let rejectRun!: (err: Error) => void;
    const handedBack = new Promise<never>((_, reject) => {
      rejectRun = reject;
    });
    handedBack.catch(() => undefined);
    const entry: Entry = {
      job,
      token,
      signal: controller.signal,
      async run(handler) {
        const running = handler();
        // Once handed back nobody awaits the handler: its late failure must not crash the process.
        running.catch(() => undefined);
        const result = await Promise.race([running, handedBack]);
        // Finished just as it was handed back: the queue gave it to another worker meanwhile.
        if (released) throw new WaitingError();
        return result;
      },
      async release(log) {
        released = true;
        try {
          await job.moveToWait(token);
          log.info({ job: job.name, id: job.id }, 'job handed back to the queue: the worker is stopping');
        } catch (err) {
          // Its lock was already lost (or it just finished): the queue decides what happens to it.
          log.warn({ job: job.name, id: job.id, err: (err as Error).message }, 'could not hand back a job');
        }
        controller.abort(new Error('The worker is stopping; the job was handed back to the queue'));
        rejectRun(new WaitingError());
      },
    };
    this.entries.add(entry);
    return entry;
  }

  finish(flight: Flight) {
    this.entries.delete(flight as Entry);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Hands every running job back to the queue; their handlers are told to stop. */
  async releaseAll(log: Logger): Promise<number> {
    const entries = [...this.entries];
    await Promise.all(entries.map((e) => e.release(log)));
    return entries.length;
  }
}
