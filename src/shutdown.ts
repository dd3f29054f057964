import type { Logger } from 'pino';

/** What a step may spend: it should be done by `deadline` (epoch ms), leaving time for the steps after it. */
export type ShutdownBudget = { deadline: number };

/**
 * Graceful shutdown on SIGTERM or SIGINT. Installed first thing, before a process starts
 * anything or says it is ready — a signal that arrived before the handler existed would
 * kill the process outright. Components register a step as they start; steps run in
 * reverse order (HTTP, workers, queues, ORM, Redis), with a force-quit timer
 * in case one hangs. Draining steps (HTTP requests, running jobs) get a deadline short of
 * the timer, so the closing steps after them still fit and the process exits 0.
 */
export class Shutdown {
  private readonly steps: Array<(budget: ShutdownBudget) => Promise<void>> = [];
  private log: Logger | undefined;
  private stopping = false;

  constructor(timeoutMs: number) {
    const stop = (signal: string) => void this.stop(signal, timeoutMs);
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  }

  useLogger(log: Logger) {
    this.log = log;
  }

  /** Runs `step` on shutdown, before every step added earlier. */
  add(step: (budget: ShutdownBudget) => Promise<void>) {
    this.steps.push(step);
  }

  private async stop(signal: string, timeoutMs: number) {
    if (this.stopping) return;
    this.stopping = true;
    this.log?.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      this.log?.error('shutdown timed out; forcing exit');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    const budget = { deadline: Date.now() + timeoutMs - closingReserve(timeoutMs) };
    for (const step of [...this.steps].reverse()) {
      try {
        await step(budget);
      } catch (err) {
        this.log?.error({ err }, 'shutdown step failed');
      }
    }
    this.log?.info('stopped');
    process.exit(0);
  }
}

/** Kept for closing queues, the ORM and Redis after the drain: a fifth of the timeout, at most 3 s. */
function closingReserve(timeoutMs: number): number {
  return Math.min(3000, timeoutMs / 5);
}
