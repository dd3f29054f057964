import { QueueEvents } from 'bullmq';
import type { Config } from '../../config/env.ts';
import { requestRecluster } from '../domain/conversations/recluster-triggers.ts';
import type { ReclusterResult } from '../domain/conversations/recluster.ts';
import { Organization } from '../domain/entities/organization.entity.ts';
import { openOrm } from '../domain/orm.ts';
import { notFound } from '../domain/shared/errors.ts';
import { JobOutbox } from '../jobs/outbox.ts';
import { QueueProducer } from '../jobs/producer.ts';
import { reclusterJob } from '../jobs/recluster.job.ts';
import { jobs } from '../jobs/registry.ts';
import { createLogger } from '../runtime.ts';
import { UsageError } from './cli-error.ts';

type Flags = Record<string, string | boolean | undefined>;

/** How often the command looks for its job while the outbox relay has yet to enqueue it (Redis was down). */
const LOOK_AGAIN_MS = 1000;

/**
 * `conversations recluster --org ORG`: records a re-clustering job through the outbox, like
 * every other trigger, so it runs on a worker of the `conversations` queue (it needs that
 * worker's memory, not this shell's), and waits until the job has finished. Prints the
 * cluster count, the vectors clustered (`lsa` or the embeddings model: the worker's
 * EMBEDDINGS_* and LLM_* configuration applies) and how long the run took; a run that failed for good exits 1 with its reason.
 */
export async function runConversationsCommand(config: Config, sub: string | undefined, flags: Flags): Promise<number> {
  if (sub !== 'recluster') throw new UsageError('usage: bin/vellum conversations recluster --org ORG [--json]');
  const organizationId = typeof flags.org === 'string' ? flags.org.trim() : '';
  if (!organizationId) throw new UsageError('missing --org');
  const log = createLogger({ logLevel: 'silent' }, 'cli');
  const orm = await openOrm({ databaseUrl: config.databaseUrl, poolMax: 2 });
  const producer = new QueueProducer({ url: config.redisUrl, prefix: config.queuePrefix }, jobs, log);
  const events = new QueueEvents(reclusterJob.queue, { connection: { url: config.redisUrl }, prefix: config.queuePrefix });
  events.on('error', () => undefined);
  try {
    const em = orm.em.fork();
    if (!(await em.findOne(Organization, { id: organizationId }))) throw notFound(`Organization ${organizationId}`);
    await events.waitUntilReady();
    const outbox = new JobOutbox(producer, log);
    const entry = await em.transactional(async (tx) => {
      await requestRecluster(tx, organizationId, new Date());
      return outbox.add(tx, reclusterJob, { organizationId });
    });
    await outbox.publish(em);
    const result = (await finished(producer, events, entry.id)) as ReclusterResult;
    const out = { organizationId, clusters: result.clusters, issues: result.issues, durationMs: result.durationMs, version: result.version, space: result.space };
    console.log(flags.json ? JSON.stringify(out) : `clusters: ${out.clusters}\nissues: ${out.issues}\nvectors: ${out.space}\nduration: ${(out.durationMs / 1000).toFixed(2)} s`);
    return 0;
  } finally {
    await events.close();
    await producer.close();
    await orm.close(true);
  }
}

/** The job's result once it has finished; its failure reason as an error when it failed for good. */
async function finished(producer: QueueProducer, events: QueueEvents, id: string): Promise<unknown> {
  let told = false;
  for (;;) {
    const job = await producer.queue(reclusterJob.queue).getJob(id);
    if (job) return job.waitUntilFinished(events);
    if (!told) console.error('waiting for the job to reach the conversations queue…');
    told = true;
    await new Promise((r) => setTimeout(r, LOOK_AGAIN_MS));
  }
}
