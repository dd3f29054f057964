// GET /v1/spaces/{id}/content/pages of a 5,000-page space, and GET one page, through the HTTP API.
// Usage: bash scripts/bench.sh content-pages [requests]
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import type { PageSpec } from '../src/domain/content/page-tree.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { sectionedPages } from './support/sectioned-pages.ts';
import { benchOrg } from './support/bench-org.ts';
import { rng, vocabulary, wordPicker } from './support/corpus.ts';
import { summary, timeRuns } from './support/stats.ts';

/** Seeded content: the benchmarks that search index it themselves. */
const NO_REINDEX = () => undefined;

const REQUESTS = Number(process.argv[2] ?? 100);
const random = rng(42);
// Content is stored by hash: a run-unique line keeps earlier runs' bodies from being reused.
const salt = `\nRun ${newId()}.\n`;
const pick = wordPicker(vocabulary(3000, random), random);

const api = await startBenchApi(await benchDatabaseUrl());
const em = api.rt.orm.em.fork();
const { token, newSpace } = await benchOrg(em);
const space = await newSpace('Five thousand pages');

const ids: string[] = [];
const pages: PageSpec[] = sectionedPages(pick, random, salt);
let started = performance.now();
const revision = await commitOnCurrent(em, space, async () => ({ pages }), NO_REINDEX);
const storeMs = performance.now() - started;
const tree = (await api.get(`/v1/spaces/${space.id}/content/pages`, token)) as { pages: Array<{ id: string; pages: Array<{ id: string }> }> };
for (const s of tree.pages) for (const p of s.pages) ids.push(p.id);
started = performance.now();
await commitOnCurrent(em, space, async () => ({ pages: pages.map((p, i) => (i === 7 ? { ...p, markdown: `${p.markdown}\nOne more line.` } : p)) }), NO_REINDEX);
const oneChangeMs = performance.now() - started;

const list = await timeRuns(REQUESTS, () => api.get(`/v1/spaces/${space.id}/content/pages`, token));
const one = await timeRuns(REQUESTS, (i) => api.get(`/v1/spaces/${space.id}/content/page/${ids[(i * 97) % ids.length]}`, token));
console.log(`content pages: space of ${50 + 50 * 99} pages (revision ${revision.id})`);
console.log(`  store first revision: ${storeMs.toFixed(0)} ms; a revision changing one page: ${oneChangeMs.toFixed(0)} ms`);
console.log(`  ${summary('GET .../content/pages', list)}`);
console.log(`  ${summary('GET .../content/page/{pageId}', one)}`);
await api.close();
process.exit(0);
