import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';

const bin = fileURLToPath(new URL('../../bin/vellum', import.meta.url));

/**
 * SIGTERM under keep-alive load: busy keep-alive connections must stop taking requests,
 * so the process drains and exits 0 on its own instead of being force-quit (exit 1)
 * at the end of SHUTDOWN_TIMEOUT with requests in flight and the ORM left open.
 */
describe('serve under keep-alive load', () => {
  it('drains on SIGTERM: accepted requests complete, the process exits 0', async () => {
    const child = spawn(bin, ['serve'], {
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl(),
        REDIS_URL: testRedisUrl(),
        QUEUE_PREFIX: 'vellum-drain-test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT: '10',
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /"port":(\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    const agent = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000, connections: 8 });
    let signalled = false;
    let stopped = false;
    const statuses: number[] = [];
    let answeredAfterSignal = 0;
    const failures: string[] = [];

    const loop = async (path: string) => {
      while (!stopped) {
        let res;
        try {
          res = await request(`http://127.0.0.1:${port}${path}`, { dispatcher: agent });
        } catch (err) {
          // Refused or closed before any answer: not accepted, which is right once draining.
          if (!signalled) failures.push(`before SIGTERM: ${String(err)}`);
          if (signalled) await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        try {
          await res.body.text();
        } catch (err) {
          failures.push(`${path}: answer cut off: ${String(err)}`);
        }
        statuses.push(res.statusCode);
        if (signalled) answeredAfterSignal++;
      }
    };
    const loops = Array.from({ length: 8 }, (_, i) => loop(i % 2 ? '/readyz' : '/healthz'));

    // Load is running on every connection when the signal comes.
    while (statuses.length < 200) await new Promise((r) => setTimeout(r, 10));
    signalled = true;
    child.kill('SIGTERM');
    const code = await exited;
    stopped = true;
    await Promise.all(loops);
    await agent.close();

    expect(failures.slice(0, 5)).toEqual([]);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(code).toBe(0);
    // Requests in flight at the signal (and any that reached a busy connection) were answered.
    expect(answeredAfterSignal).toBeGreaterThan(0);
  }, 40_000);
});
