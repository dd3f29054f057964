import { MikroORM } from '@mikro-orm/postgresql';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/domain/content/collect-garbage.ts';
import { FileEntry } from '../../src/domain/entities/file-entry.entity.ts';
import { PageBody } from '../../src/domain/entities/page-body.entity.ts';
import { PageNode } from '../../src/domain/entities/page-node.entity.ts';
import { PdfExport } from '../../src/domain/entities/pdf-export.entity.ts';
import { requestExport } from '../../src/domain/exports/pdf-exports.ts';
import { runExport } from '../../src/domain/exports/run-export.ts';
import { migrateDatabase } from '../../src/domain/migrate.ts';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { fixedClock } from '../../src/domain/shared/clock.ts';
import type { BlobStore } from '../../src/domain/storage/blob-store.ts';
import { LocalDiskStore } from '../../src/domain/storage/local-disk-store.ts';
import { JobOutbox } from '../../src/jobs/outbox.ts';
import { QueueProducer } from '../../src/jobs/producer.ts';
import { DAY_MS, purgeSpacesJob } from '../../src/jobs/purge-spaces.job.ts';
import { buildContent, buildOrg, buildSpace } from '../support/factories.ts';
import { testDatabaseUrl, testJobServices, testRedisUrl } from '../support/test-env.ts';

// The sweep looks at every revision of the database, so it gets a database of its own.
const url = testDatabaseUrl().replace(/\/([^/]+)$/, '/$1_gc');
const log = pino({ level: 'silent' });
let orm: Orm;
let blobs: BlobStore;

beforeAll(async () => {
  const admin = await MikroORM.init({ clientUrl: url.replace(/\/[^/]+$/, '/postgres'), entities: [], discovery: { warnWhenNoEntities: false } });
  await admin.em.getConnection().execute(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  await admin.close(true);
  await migrateDatabase(url);
  orm = await openOrm({ databaseUrl: url, poolMax: 4 });
  blobs = new LocalDiskStore(await mkdtemp(join(tmpdir(), 'vellum-gc-')));
});
afterAll(() => orm.close(true));

const count = async () => {
  const em = orm.em.fork();
  return { nodes: await em.count(PageNode, {}), bodies: await em.count(PageBody, {}), files: await em.count(FileEntry, {}) };
};

describe('purging also removes content only the purged spaces used', () => {
  it('sweeps unreachable nodes, bodies, file entries and blobs, keeps shared ones, and is safe to rerun', async () => {
    const em = orm.em.fork();
    const { org, owner } = await buildOrg(em);
    const doomed = await buildSpace(em, org, owner);
    const kept = await buildSpace(em, org, owner);
    const shared = { id: 'gcSharedPage0000000a', kind: 'document' as const, title: 'Shared', markdown: 'in both spaces' };
    await buildContent(em, doomed, [shared, { kind: 'document', title: 'Only here', markdown: 'unique text' }], [{ name: 'only.png', contentType: 'image/png', bytes: Buffer.from('only bytes') }], blobs);
    await buildContent(em, kept, [shared], [{ name: 'kept.png', contentType: 'image/png', bytes: Buffer.from('kept bytes') }], blobs);
    const onlyKey = (await orm.em.fork().findOneOrFail(FileEntry, { name: 'only.png' })).blobKey;
    const keptKey = (await orm.em.fork().findOneOrFail(FileEntry, { name: 'kept.png' })).blobKey;
    const before = await count();

    // Content is fresh: within the grace period nothing is swept, even unreachable.
    doomed.deletedAt = new Date(Date.now() - 10 * DAY_MS);
    await em.flush();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: 'vt-gc' }, [], log);
    const clock = fixedClock(new Date());
    const ctx = { em: orm.em.fork(), log, clock, outbox: new JobOutbox(producer, log), attempt: 1, services: { ...testJobServices(), blobs }, reportProgress: async () => undefined };
    await purgeSpacesJob.handle({ retentionMs: 7 * DAY_MS }, ctx);
    expect(await count()).toEqual(before);

    // Two hours on, the sweep finds what the purged space alone used.
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const collected = await collectGarbage(orm.em.fork(), blobs, later, 3600 * 1000);
    expect(collected).toEqual({ nodes: 1, bodies: 1, files: 1, blobs: 1 });
    expect(await blobs.exists(onlyKey)).toBe(false);
    expect(await blobs.exists(keptKey)).toBe(true);
    const after = await count();
    expect(after).toEqual({ nodes: before.nodes - 1, bodies: before.bodies - 1, files: before.files - 1 });
    expect(await orm.em.fork().count(PageBody, { markdown: 'in both spaces' })).toBe(1);

    expect(await collectGarbage(orm.em.fork(), blobs, later, 3600 * 1000)).toEqual({ nodes: 0, bodies: 0, files: 0, blobs: 0 });
    await producer.close();
  });

  it("removes a purged space's PDF exports and their blobs, and keeps a blob a live export still uses", async () => {
    const em = orm.em.fork();
    const { org, owner } = await buildOrg(em);
    const doomed = await buildSpace(em, org, owner);
    const kept = await buildSpace(em, org, owner);
    await buildContent(em, doomed, [{ kind: 'document', title: 'Doomed', markdown: 'goes with its space' }]);
    await buildContent(em, kept, [{ kind: 'document', title: 'Kept', markdown: 'stays' }]);
    const exported = async (space: typeof kept) => {
      const state = await requestExport(orm.em.fork(), { spaceId: space.id, revisionId: space.revision, scope: { pageId: null, only: false } }, () => undefined);
      const row = await orm.em.fork().findOneOrFail(PdfExport, { id: state.id });
      await runExport(orm.em.fork(), blobs, { exportId: row.id, runId: row.runId });
      return (await orm.em.fork().findOneOrFail(PdfExport, { id: state.id })).blobKey!;
    };
    const doomedPdf = await exported(doomed);
    const keptPdf = await exported(kept);
    // The doomed space also holds the kept PDF's bytes as a file: its entry goes, the bytes stay.
    const keptBytes = Buffer.concat(await (await blobs.get(keptPdf))!.toArray());
    await buildContent(em, doomed, [{ kind: 'document', title: 'Doomed', markdown: 'goes with its space' }], [{ name: 'copy.pdf', contentType: 'application/pdf', bytes: keptBytes }], blobs);

    doomed.deletedAt = new Date(Date.now() - 10 * DAY_MS);
    await em.flush();
    const producer = new QueueProducer({ url: testRedisUrl(), prefix: 'vt-gc' }, [], log);
    const ctx = { em: orm.em.fork(), log, clock: fixedClock(new Date()), outbox: new JobOutbox(producer, log), attempt: 1, services: { ...testJobServices(), blobs }, reportProgress: async () => undefined };
    await purgeSpacesJob.handle({ retentionMs: 7 * DAY_MS }, ctx);
    await collectGarbage(orm.em.fork(), blobs, new Date(Date.now() + 2 * 3600 * 1000), 3600 * 1000);

    expect(await orm.em.fork().count(PdfExport, { spaceId: doomed.id })).toBe(0);
    expect(await blobs.exists(doomedPdf)).toBe(false);
    expect(await orm.em.fork().count(PdfExport, { spaceId: kept.id })).toBe(1);
    expect(await blobs.exists(keptPdf)).toBe(true);
    await producer.close();
  });

  it('finishes blob deletions an interrupted run left as tombstones', async () => {
    const bytes = Buffer.from(`orphan ${Date.now()}`);
    const key = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    await blobs.put(key, bytes, 'text/plain');
    await orm.em.fork().execute('insert into blob_tombstones (key, created_at) values (?, now())', [key]);
    const collected = await collectGarbage(orm.em.fork(), blobs, new Date(), 3600 * 1000, { sweep: false });
    expect(collected.blobs).toBe(1);
    expect(await blobs.exists(key)).toBe(false);
  });
});
