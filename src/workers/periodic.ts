import type { Logger } from 'pino';

/**
 * Runs `task` every `intervalMs`, never two passes at once; a failed pass is logged and the
 * next one tries again. `stop` waits for a pass in progress.
 */
export function every(intervalMs: number, task: () => Promise<void>, log: Logger, what: string) {
  let pass: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (pass) return;
    pass = task()
      .catch((err) => log.warn({ err: (err as Error).message }, `${what} failed; will retry`))
      .finally(() => {
        pass = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
