import { Piscina } from 'piscina';
import type { ParseOutcome, ParseTask, ValidateOutcome, ValidateTask } from './parse-worker.ts';

let pool: Piscina | undefined;

/** One small pool per process; threads start on first use and stop when idle. */
function workers(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./parse-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 30_000,
  });
  return pool;
}

export function parseInWorker(task: Omit<ParseTask, 'task'>): Promise<ParseOutcome> {
  return workers().run({ task: 'parse', ...task });
}

export function validateInWorker(task: Omit<ValidateTask, 'task'>): Promise<ValidateOutcome> {
  return workers().run({ task: 'validate', ...task });
}

export async function closeParsePool(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}
