import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/queues.ts';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';

const bin = fileURLToPath(new URL('../../bin/vellum', import.meta.url));
const env = { ...process.env, DATABASE_URL: testDatabaseUrl(), REDIS_URL: testRedisUrl(), QUEUE_PREFIX: 'vellum-cli-test' };

describe('long-running processes', () => {
  it('serve answers, then drains and exits 0 on SIGTERM', async () => {
    const child = spawn(bin, ['serve'], { env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' } });
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /"port":(\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
    });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('work starts on the chosen queues and stops cleanly on SIGTERM', async () => {
    const child = spawn(bin, ['work', '--queues', 'maintenance,openapi', '--concurrency', 'openapi=1,2'], { env: { ...env, LOG_LEVEL: 'info' } });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('workers started') && resolve());
      child.once('exit', (code) => reject(new Error(`work exited (${code})`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('work refuses unknown queues with a one-line reason', async () => {
    const res = await promisify(execFile)(bin, ['work', '--queues', 'nope'], { env }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toMatch(/^vellum: --queues takes names from: /);
  });

  it('queues --json prints the state of every queue', async () => {
    const { stdout } = await promisify(execFile)(bin, ['queues', '--json'], { env });
    const { queues } = JSON.parse(stdout);
    expect(queues.map((q: { queue: string }) => q.queue)).toEqual([...QUEUES]);
    expect(queues[0]).toEqual({ queue: 'maintenance', waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, oldestWaitingSeconds: 0 });
  });
});
