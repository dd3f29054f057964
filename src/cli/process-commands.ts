import type { Config } from '../../config/env.ts';
import { startServer } from '../api/server.ts';
import { guardedHttpFrom } from '../domain/net/guarded-http.ts';
import { QueueProducer } from '../jobs/producer.ts';
import { parkedSummary } from '../jobs/outbox-parked.ts';
import { queueStats } from '../jobs/queue-stats.ts';
import { openOrm } from '../domain/orm.ts';
import { jobs } from '../jobs/registry.ts';
import { schedules } from '../jobs/schedules.ts';
import { startScheduler } from '../workers/scheduler.ts';
import { parseConcurrency, parseQueues } from '../workers/worker-flags.ts';
import { startWorkers } from '../workers/worker.ts';
import { migrateDatabase, createMigration } from '../domain/migrate.ts';
import { aiServicesFrom } from '../domain/ai/ai-services.ts';
import { translationProviderFrom } from '../domain/translations/providers/index.ts';
import { closeRuntime, createLogger, openRuntime, type Runtime } from '../runtime.ts';
import { Shutdown } from '../shutdown.ts';

type Flags = Record<string, string | boolean | undefined>;
/** Returns an exit code, or -1 for a long-running process that exits on a signal. */
type ProcessCommand = (config: Config, flags: Flags) => Promise<number>;

export const processCommands: Record<string, ProcessCommand> = {
  async serve(config) {
    const shutdown = new Shutdown(config.shutdownTimeoutMs);
    const rt = await started(shutdown, openRuntime('api', config));
    const http = await startServer(rt);
    shutdown.add(() => http.close());
    return -1;
  },
  async work(config, flags) {
    const shutdown = new Shutdown(config.shutdownTimeoutMs);
    const rt = await started(shutdown, openRuntime('worker', config));
    const running = workersFromFlags(rt, flags);
    shutdown.add(({ deadline }) => running.close({ drainUntil: deadline }));
    rt.log.info({ queues: running.workers.map((w) => w.name) }, 'workers started');
    return -1;
  },
  async schedule(config) {
    const shutdown = new Shutdown(config.shutdownTimeoutMs);
    const rt = await started(shutdown, openRuntime('scheduler', config));
    const producer = new QueueProducer({ url: config.redisUrl, prefix: config.queuePrefix }, jobs, rt.log);
    shutdown.add(() => producer.close());
    const scheduler = startScheduler(producer, schedules(config), rt.log, rt.orm);
    shutdown.add(() => scheduler.close());
    return -1;
  },
  /** Development: API, workers and scheduler in one process, shut down in that order. */
  async start(config, flags) {
    const shutdown = new Shutdown(config.shutdownTimeoutMs);
    const rt = await started(shutdown, openRuntime('vellum', config));
    const producer = new QueueProducer({ url: config.redisUrl, prefix: config.queuePrefix }, jobs, rt.log);
    shutdown.add(() => producer.close());
    const scheduler = startScheduler(producer, schedules(config), rt.log, rt.orm);
    shutdown.add(() => scheduler.close());
    const workers = workersFromFlags(rt, flags);
    shutdown.add(({ deadline }) => workers.close({ drainUntil: deadline }));
    const http = await startServer(rt);
    shutdown.add(() => http.close());
    return -1;
  },
  async queues(config, flags) {
    const log = createLogger({ logLevel: 'silent' }, 'cli');
    const producer = new QueueProducer({ url: config.redisUrl, prefix: config.queuePrefix }, jobs, log);
    const orm = await openOrm({ databaseUrl: config.databaseUrl, poolMax: 1 });
    try {
      const [stats, parked] = await Promise.all([queueStats(producer), parkedSummary(orm.em.fork())]);
      if (flags.json) console.log(JSON.stringify({ queues: stats, parked }));
      else {
        console.table(stats);
        if (parked.length) {
          console.log('Parked outbox rows (not enqueued until retried: bin/vellum outbox:parked, outbox:retry, outbox:drop):');
          console.table(parked);
        }
      }
      return 0;
    } finally {
      await producer.close();
      await orm.close(true);
    }
  },
  async migrate(config, flags) {
    const applied = await migrateDatabase(config.databaseUrl);
    console.log(flags.json ? JSON.stringify({ applied }) : `migrations applied: ${applied.length ? applied.join(', ') : 'none (up to date)'}`);
    return 0;
  },
  async 'migration:create'(config, flags) {
    const name = typeof flags.name === 'string' ? flags.name : undefined;
    const file = await createMigration(config.databaseUrl, name);
    console.log(file ? `written src/domain/migrations/${file}; add it to src/domain/migrations/index.ts` : "no schema changes");
    return 0;
  },
};

/** The runtime, with its closing registered as the last shutdown step. */
async function started(shutdown: Shutdown, opening: Promise<Runtime>): Promise<Runtime> {
  const rt = await opening;
  shutdown.useLogger(rt.log);
  shutdown.add(() => closeRuntime(rt));
  return rt;
}

/** Workers for the queues and concurrency given on the command line (validated before anything starts). */
function workersFromFlags(rt: Runtime, flags: Flags) {
  const { config } = rt;
  return startWorkers({
    orm: rt.orm,
    log: rt.log,
    connection: { url: config.redisUrl, prefix: config.queuePrefix },
    jobs,
    queues: parseQueues(flag(flags.queues)),
    concurrency: parseConcurrency(flag(flags.concurrency), config.workerConcurrency),
    lockMs: config.jobLockMs,
    services: {
      blobs: rt.blobs,
      http: guardedHttpFrom(config),
      ai: aiServicesFrom(config, rt.log),
      // TRANSLATION_PROVIDER (`pseudo` by default); built once, so DeepL glossary ids are cached per process.
      translation: translationProviderFrom(config),
    },
  });
}

function flag(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
