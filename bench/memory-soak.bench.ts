// RSS of a real API process under a repeated mixed read load over many distinct revisions:
// every round reads the same spaces and revisions; with every cache bounded by bytes, RSS
// after rounds 2..N stays within a few percent of round 1 (printed beside it).
// Usage: bash scripts/bench.sh memory-soak
//   MEMORY_SOAK_ROUNDS (default 6), MEMORY_SOAK_SPACES (default 24), MEMORY_SOAK_CACHE
//   (the API's CONTENT_CACHE_BYTES, default 4mb: smaller than the working set, so the
//   cache evicts all the time), MEMORY_SOAK_HEAP_MB (the API's MAX_HEAP_MB, default 256;
//   empty for Node's default). A longer soak: MEMORY_SOAK_ROUNDS=60 (about 2 s a round).
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '../config/env.ts';
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import type { PageSpec } from '../src/domain/content/page-tree.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { closeRuntime, openRuntime } from '../src/runtime.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { benchOrg } from './support/bench-org.ts';
import { pageMarkdown, rng, vocabulary, wordPicker } from './support/corpus.ts';

/** Seeded content: the benchmarks that search index it themselves. */
const NO_REINDEX = () => undefined;

const ROUNDS = Number(process.env.MEMORY_SOAK_ROUNDS ?? 6);
const SPACES = Number(process.env.MEMORY_SOAK_SPACES ?? 24);
const CACHE = process.env.MEMORY_SOAK_CACHE ?? '4mb';
const HEAP = process.env.MEMORY_SOAK_HEAP_MB ?? '256';
const REVISIONS = 4;
const PAGES = 120;
const CONCURRENCY = 8;
const WARMUP = 3;

const databaseUrl = await benchDatabaseUrl();
const random = rng(7);
const pick = wordPicker(vocabulary(2000, random), random);
const salt = `\nRun ${newId()}.\n`;

// Content: every space has REVISIONS revisions whose titles differ, so every revision is a
// distinct tree (its own cache entry); page ids stay the same across a space's revisions.
const rt = await openRuntime('bench', loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
const em = rt.orm.em.fork();
const { token, newSpace } = await benchOrg(em);
type Target = { spaceId: string; revisions: string[]; pageIds: string[] };
const targets: Target[] = [];
const seedStarted = performance.now();
for (let s = 0; s < SPACES; s++) {
  const space = await newSpace(`Soak ${s}`);
  const pageIds = Array.from({ length: PAGES }, () => newId());
  const bodies = pageIds.map((_, p) => pageMarkdown(`Page ${p}`, pick, random) + `\n[next](page-${(p + 1) % PAGES}.md)\n` + salt);
  const revisions: string[] = [];
  for (let r = 0; r < REVISIONS; r++) {
    const pages: PageSpec[] = pageIds.map((id, p) => ({ id, kind: 'document' as const, title: `Page ${p} ${pick()} r${r}`, markdown: bodies[p]! }));
    revisions.push((await commitOnCurrent(em, space, async () => ({ pages }), NO_REINDEX)).id);
  }
  targets.push({ spaceId: space.id, revisions, pageIds });
}
await closeRuntime(rt);
const seedMs = performance.now() - seedStarted;

// The API as its own process, as in production.
const port = await freePort();
const api = spawn('bin/vellum', ['serve'], {
  env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', QUEUE_PREFIX: 'vellum-bench', CONTENT_CACHE_BYTES: CACHE, MAX_HEAP_MB: HEAP },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
await waitUntilUp();

const reads = (t: Target): string[] => [
  `/v1/spaces/${t.spaceId}/content`,
  `/v1/spaces/${t.spaceId}/content/pages`,
  ...t.revisions.flatMap((r, i) => [`/v1/spaces/${t.spaceId}/revisions/${r}/pages`, `/v1/spaces/${t.spaceId}/revisions/${r}/page/${t.pageIds[i * 7]}`]),
  ...[0, 31, 62, 93].map((p) => `/v1/spaces/${t.spaceId}/content/page/${t.pageIds[p]}?format=document`),
  `/v1/spaces/${t.spaceId}/links`,
  `/v1/spaces/${t.spaceId}/content/page/${t.pageIds[5]}/backlinks`,
  `/v1/spaces/${t.spaceId}`,
];
const paths = targets.flatMap(reads);

console.log(
  `memory soak: ${SPACES} spaces × ${REVISIONS} revisions × ${PAGES} pages (${SPACES * REVISIONS} distinct trees), API CONTENT_CACHE_BYTES=${CACHE} MAX_HEAP_MB=${HEAP || '(Node default)'}`,
);
console.log(`  seeded in ${(seedMs / 1000).toFixed(1)} s; ${paths.length} reads per round, ${CONCURRENCY} at a time`);
// Unmeasured rounds first: they compile the code paths and let the heap grow to the size
// its collector settles on; what is measured is whether memory keeps growing after that.
for (let w = 0; w < WARMUP; w++) await runAll(paths, CONCURRENCY);
const warm = await memory();
console.log(`  after ${WARMUP} warm-up rounds: RSS ${mb(warm.rss)} MB, heap used ${mb(warm.heap)} MB`);
let reference: { rss: number; heap: number } | undefined;
let worst = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const started = performance.now();
  await runAll(paths, CONCURRENCY);
  const ms = performance.now() - started;
  const m = await memory();
  reference ??= m;
  const drift = ((m.rss - reference.rss) / reference.rss) * 100;
  if (round > 1) worst = Math.max(worst, Math.abs(drift));
  console.log(
    `  round ${round}: RSS ${mb(m.rss)} MB (round 1: ${mb(reference.rss)} MB, ${drift >= 0 ? '+' : ''}${drift.toFixed(1)}%)  heap used ${mb(m.heap)} MB (round 1: ${mb(reference.heap)} MB)  ${Math.round((paths.length / ms) * 1000)} req/s`,
  );
}
console.log(`  rounds 2..${ROUNDS}: largest RSS drift from round 1 ${worst.toFixed(1)}%`);
api.kill('SIGTERM');
await new Promise((resolve) => api.once('exit', resolve));
process.exit(0);

async function runAll(list: string[], width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const path = list[next++]!;
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/** The API process's own figures, from its Prometheus metrics. */
async function memory(): Promise<{ rss: number; heap: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: value('process_resident_memory_bytes'), heap: value('nodejs_heap_size_used_bytes') };
}

async function waitUntilUp(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (api.exitCode !== null) throw new Error(`API exited with ${api.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('API did not start');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
