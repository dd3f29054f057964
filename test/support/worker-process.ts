// A real worker process for tests that kill or stop one: the production startWorkers and
// Shutdown with the test jobs (and a slowed conversation extraction). SHUTDOWN_TIMEOUT (seconds) and JOB_LOCK_MS as in production.
import { pino } from 'pino';
import { openOrm } from '../../src/domain/orm.ts';
import { Shutdown } from '../../src/shutdown.ts';
import type { QueueName } from '../../src/jobs/queues.ts';
import { startWorkers } from '../../src/workers/worker.ts';
import { translationRunJob } from '../../src/jobs/translation-run.job.ts';
import { websiteImportJob } from '../../src/jobs/website-import.job.ts';
import { longJobs } from './long-jobs.ts';
import { TestProvider } from './test-providers.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from './test-env.ts';
import { NO_OUTBOX_PASSES, testJobs } from './test-jobs.ts';

const shutdown = new Shutdown(Number(process.env.SHUTDOWN_TIMEOUT ?? 25) * 1000);
const log = pino({ level: process.env.WORKER_LOG_LEVEL ?? 'silent' }, process.stderr);
shutdown.useLogger(log);
const orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 2 });
shutdown.add(() => orm.close(true));
const running = startWorkers({
  orm,
  log,
  connection: { url: testRedisUrl(), prefix: process.env.QUEUE_PREFIX! },
  jobs: [...testJobs, ...longJobs, translationRunJob, websiteImportJob],
  // WORKER_QUEUES: comma-separated queue names (the test jobs' `maintenance` by default).
  queues: (process.env.WORKER_QUEUES ?? 'maintenance').split(',') as QueueName[],
  concurrency: { default: 2 },
  lockMs: Number(process.env.JOB_LOCK_MS ?? 30_000),
  // TRANSLATION_DELAY_MS: a slow pseudo provider noting each call under TRANSLATION_MARKS (a Redis list).
  services: process.env.TRANSLATION_DELAY_MS
    ? { ...testJobServices(), translation: new TestProvider({ delayMs: Number(process.env.TRANSLATION_DELAY_MS), marksKey: process.env.TRANSLATION_MARKS }) }
    : testJobServices(),
  ...NO_OUTBOX_PASSES,
});
shutdown.add(({ deadline }) => running.close({ drainUntil: deadline }));
await Promise.all(running.workers.map((w) => w.waitUntilReady()));
process.stdout.write('ready\n');
