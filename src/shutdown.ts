import type { Logger } from 'pino';

/**
 * Graceful shutdown on SIGTERM or SIGINT. Installed first thing, before a process starts
 * anything or says it is ready — a signal that arrived before the handler existed would
 * kill the process outright. Components register a step as they start; steps run in
 * reverse order (HTTP, workers, queues, ORM, Redis: STYLE.md 13), with a force-quit timer
 * in case one hangs.
 */
export class Shutdown {
  private readonly steps: Array<() => Promise<void>> = [];
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
  add(step: () => Promise<void>) {
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
    for (const step of [...this.steps].reverse()) {
      try {
        await step();
      } catch (err) {
        this.log?.error({ err }, 'shutdown step failed');
      }
    }
    this.log?.info('stopped');
    process.exit(0);
  }
}
