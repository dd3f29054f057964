// Import of a 1,000-page Git repository (GitBook layout) end to end: clone through the
// guarded client, read the layout, store and commit. Usage: bash scripts/bench.sh git-import [runs]
import { GitImport } from '../src/domain/entities/git-import.entity.ts';
import { GuardedHttp, parseAllowlist } from '../src/domain/net/guarded-http.ts';
import { LocalDiskStore } from '../src/domain/storage/local-disk-store.ts';
import { gitImportJob } from '../src/jobs/git-import.job.ts';
import { JobOutbox } from '../src/jobs/outbox.ts';
import { QueueProducer } from '../src/jobs/producer.ts';
import { serveGit, TestRepository } from '../test/support/git-server.ts';
import { benchDatabaseUrl, redisUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { benchOrg } from './support/bench-org.ts';
import { pageMarkdown, rng, vocabulary, wordPicker } from './support/corpus.ts';
import { summary, timeRuns } from './support/stats.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.argv[2] ?? 5);
const random = rng(3);
const pick = wordPicker(vocabulary(3000, random), random);

// 20 chapters of 49 pages plus a chapter page each, and the README: 1,001 pages.
const files: Record<string, string> = { 'README.md': '# Handbook\n\nWelcome.\n' };
let summaryMd = '# Table of contents\n\n* [Handbook](README.md)\n';
for (let c = 0; c < 20; c++) {
  summaryMd += `\n## Part ${c}\n\n* [Chapter ${c}](chapter-${c}/README.md)\n`;
  files[`chapter-${c}/README.md`] = pageMarkdown(`Chapter ${c}`, pick, random);
  for (let p = 0; p < 49; p++) {
    files[`chapter-${c}/page-${p}.md`] = pageMarkdown(`Page ${c}.${p}`, pick, random);
    summaryMd += `  * [Page ${c}.${p}](chapter-${c}/page-${p}.md)\n`;
  }
}
files['SUMMARY.md'] = summaryMd;
const repo = await TestRepository.create('handbook', files);
const git = await serveGit(repo.root);

const api = await startBenchApi(await benchDatabaseUrl());
const { newSpace } = await benchOrg(api.rt.orm.em.fork());
const log = api.rt.log;
const producer = new QueueProducer({ url: redisUrl, prefix: 'vellum-bench' }, [], log);
const services = {
  blobs: new LocalDiskStore(join(tmpdir(), 'vellum-bench-blobs')),
  http: new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 120_000, maxBytes: 500 * 1024 * 1024, maxRedirects: 3, userAgent: 'bench' }),
};

async function importInto(spaceId: string) {
  const em = api.rt.orm.em.fork();
  const imp = em.create(GitImport, { space: spaceId, url: `${git.url}/handbook.git`, ref: 'refs/heads/main' });
  await em.flush();
  // The search re-index the import records is left in the outbox: this measures the import alone.
  const ctx = { em: api.rt.orm.em.fork(), log, clock: { now: () => new Date() }, outbox: new JobOutbox(producer, log), attempt: 1, services, reportProgress: async () => undefined };
  const result = (await gitImportJob.handle({ importId: imp.id }, ctx)) as { pages: number };
  if (!result.pages) throw new Error('nothing imported');
}

const spaces = await Promise.all(Array.from({ length: RUNS }, (_, i) => newSpace(`Import ${i}`)));
const fresh = await timeRuns(RUNS, (i) => importInto(spaces[i]!.id));
const again = await timeRuns(RUNS, (i) => importInto(spaces[i]!.id));
console.log(`git import: repository of ${Object.keys(files).length - 1} pages (+SUMMARY.md)`);
console.log(`  ${summary('first import into an empty space', fresh)}`);
console.log(`  ${summary('re-import of the unchanged repository', again)}`);
await producer.close();
await git.close();
await api.close();
process.exit(0);
