import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/**
 * A worker process (worker-process.ts) on queue prefix `prefix`, resolved once it says
 * `ready`. A short job lock (1.5 s) by default, so a killed one's job is taken up again
 * within a test's time.
 */
export function spawnWorker(prefix: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, QUEUE_PREFIX: prefix, JOB_LOCK_MS: '1500', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}
