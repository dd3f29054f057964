import type { Logger } from 'pino';

/**
 * Runs the ordered shutdown steps once, on SIGTERM or SIGINT, with a force-quit timer in
 * case a step hangs (STYLE.md 13: HTTP, workers, queues, ORM, Redis).
 */
export function onShutdown(log: Logger, timeoutMs: number, steps: Array<() => Promise<void>>) {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out; forcing exit');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        log.error({ err }, 'shutdown step failed');
      }
    }
    log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
