// Search over 100,000 pages (20 spaces of 5,000), through the HTTP API: space and organization search.
// Usage: bash scripts/bench.sh search [pages] [queries]
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import type { PageSpec } from '../src/domain/content/page-tree.ts';
import { indexSpace } from '../src/domain/search/index-space.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { benchOrg } from './support/bench-org.ts';
import { issueUserToken } from '../src/domain/auth/tokens.ts';
import { Member } from '../src/domain/entities/member.entity.ts';
import { Organization } from '../src/domain/entities/organization.entity.ts';
import { Space } from '../src/domain/entities/space.entity.ts';
import { pageMarkdown, rng, vocabulary, wordPicker } from './support/corpus.ts';
import { summary, timeRuns } from './support/stats.ts';

/** Seeded content: the benchmarks that search index it themselves. */
const NO_REINDEX = () => undefined;

const TOTAL = Number(process.argv[2] ?? 100_000);
const QUERIES = Number(process.argv[3] ?? 200);
const PER_SPACE = 5000;
const random = rng(7);
const salt = `\nRun ${newId()}.\n`;
const words = vocabulary(5000, random);
const pick = wordPicker(words, random);

const api = await startBenchApi(await benchDatabaseUrl());
const em = api.rt.orm.em.fork();
const { org, token, spaces, buildMs } = await corpus();
const [sections] = await em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from search_sections where space_id in (?)', [spaces]);

/** The corpus of TOTAL pages, built once per bench database and reused by later runs. */
async function corpus() {
  const title = `Search bench ${TOTAL}`;
  const existing = await em.findOne(Organization, { title });
  if (existing) {
    const owner = await em.findOneOrFail(Member, { organization: existing, role: 'admin' }, { populate: ['user'] });
    const token = issueUserToken(em, owner.user);
    await em.flush();
    const found = await em.find(Space, { organization: existing }, { orderBy: { createdAt: 'asc' } });
    return { org: existing, token, spaces: found.map((s) => s.id), buildMs: 0 };
  }
  const { org, token, newSpace } = await benchOrg(em);
  org.title = title;
  await em.flush();
  const ids: string[] = [];
  const started = performance.now();
  for (let s = 0; s * PER_SPACE < TOTAL; s++) {
    const space = await newSpace(`Space ${s}`);
    const count = Math.min(PER_SPACE, TOTAL - s * PER_SPACE);
    const pages: PageSpec[] = Array.from({ length: count }, (_, p) => ({ kind: 'document' as const, title: `${pick()} ${pick()} ${p}`, markdown: pageMarkdown(`${pick()} ${pick()}`, pick, random) + salt }));
    await commitOnCurrent(em.fork(), space, async () => ({ pages }), NO_REINDEX);
    await indexSpace(em.fork(), space.id);
    ids.push(space.id);
    process.stderr.write(`\r  indexed ${Math.min(TOTAL, (s + 1) * PER_SPACE)} pages`);
  }
  process.stderr.write('\n');
  return { org, token, spaces: ids, buildMs: performance.now() - started };
}

// Queries mix frequent and rare words, whole and partial.
const query = (i: number) => {
  const a = words[(i * 37) % 300]!;
  const b = words[300 + ((i * 131) % 3000)]!;
  return i % 3 === 0 ? a.slice(0, 4) : i % 3 === 1 ? `${a} ${b}` : b;
};
const space = await timeRuns(QUERIES, (i) => api.get(`/v1/spaces/${spaces[i % spaces.length]}/search?query=${encodeURIComponent(query(i))}`, token));
const orgWide = await timeRuns(Math.max(10, QUERIES / 4), (i) => api.get(`/v1/orgs/${org.id}/search?query=${encodeURIComponent(query(i))}`, token));
console.log(`search: ${TOTAL} pages in ${spaces.length} spaces, ${sections!.n} sections; ${buildMs ? `built and indexed in ${(buildMs / 1000).toFixed(1)} s` : 'corpus reused from an earlier run'}`);
console.log(`  ${summary('GET /spaces/{id}/search', space)}`);
console.log(`  ${summary('GET /orgs/{id}/search (all spaces)', orgWide)}`);
await api.close();
process.exit(0);
