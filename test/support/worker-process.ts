// A real worker process for tests that kill one: the production startWorkers with the test jobs.
import { pino } from 'pino';
import { openOrm } from '../../src/domain/orm.ts';
import { startWorkers } from '../../src/workers/worker.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from './test-env.ts';
import { testJobs } from './test-jobs.ts';

const orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 2 });
const running = startWorkers({
  orm,
  log: pino({ level: 'silent' }),
  connection: { url: testRedisUrl(), prefix: process.env.QUEUE_PREFIX! },
  jobs: testJobs,
  queues: ['maintenance'],
  concurrency: { default: 2 },
  lockMs: Number(process.env.JOB_LOCK_MS ?? 30_000),
  services: testJobServices(),
});
await Promise.all(running.workers.map((w) => w.waitUntilReady()));
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await running.close();
  await orm.close(true);
  process.exit(0);
});
