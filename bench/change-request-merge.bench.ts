// Merge and update of change requests touching 50 pages of a 5,000-page space, through the HTTP API.
// Usage: bash scripts/bench.sh change-request-merge [runs]
import { commitOnChangeRequest } from '../src/domain/change-requests/commit-change-request.ts';
import { openChangeRequest } from '../src/domain/change-requests/open-change-request.ts';
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import { specsOf } from '../src/domain/content/current-pages.ts';
import type { PageSpec } from '../src/domain/content/page-tree.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { sectionedPages } from './support/sectioned-pages.ts';
import { benchOrg } from './support/bench-org.ts';
import { rng, vocabulary, wordPicker } from './support/corpus.ts';
import { percentile, summary } from './support/stats.ts';

const RUNS = Number(process.argv[2] ?? 20);
/** The target: a merge or an update of this size answers within a second, even at p99. */
const TARGET_P99_MS = 1000;
const TOUCHED = 50;
const NO_REINDEX = () => undefined;

const random = rng(7);
const salt = `\nRun ${newId()}.\n`;
const pick = wordPicker(vocabulary(3000, random), random);

const api = await startBenchApi(await benchDatabaseUrl());
const em = api.rt.orm.em.fork();
const { token, newSpace, user: author } = await benchOrg(em);
const space = await newSpace('Change request merges');

const pages: PageSpec[] = sectionedPages(pick, random, salt);
await commitOnCurrent(em, space, async () => ({ pages }), NO_REINDEX);
const ids = pages.flatMap((s) => [s.id!, ...s.children!.map((c) => c.id!)]);

/** Adds a line to the top of each of `n` pages picked at random: edits that never clash with one at the bottom. */
function touch(tree: PageSpec[], n: number, line: string, where: 'top' | 'bottom'): PageSpec[] {
  const chosen = new Set(Array.from({ length: n }, () => ids[Math.floor(random() * ids.length)]!));
  const edit = (p: PageSpec): PageSpec => ({
    ...p,
    ...(chosen.has(p.id!) ? { markdown: where === 'top' ? `${line}\n${p.markdown}` : `${p.markdown}\n${line}` } : {}),
    children: (p.children ?? []).map(edit),
  });
  return tree.map(edit);
}

/** A change request touching 50 pages, with main then moved by 50 edits of its own (so it is outdated). */
async function outdatedChangeRequest(run: number) {
  const cr = await openChangeRequest(em, space, author, { subject: `Run ${run}`, status: 'open' });
  await commitOnChangeRequest(em, space, cr, async (tx, head) => ({ pages: touch(await specsOf(tx, head), TOUCHED, `Proposed in run ${run}.`, 'top') }));
  await commitOnCurrent(em, space, async (tx, current) => ({ pages: touch(await specsOf(tx, current), TOUCHED, `Main in run ${run}.`, 'bottom') }), NO_REINDEX);
  return cr;
}

async function post(path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${api.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { result?: string };
  const ms = performance.now() - started;
  if (res.status !== 200 || (body.result !== 'merge' && body.result !== 'update')) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(body)}`);
  return ms;
}

const update: number[] = [];
const merge: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const cr = await outdatedChangeRequest(run);
  update.push(await post(`/v1/spaces/${space.id}/change-requests/${cr.id}/update`));
  // Main moves again: the merge is a real three-way one, not a fast path.
  await commitOnCurrent(em, space, async (tx, current) => ({ pages: touch(await specsOf(tx, current), TOUCHED, `Main again in run ${run}.`, 'bottom') }), NO_REINDEX);
  merge.push(await post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
}

const verdict = (ms: number[]) => (percentile(ms, 99) < TARGET_P99_MS ? 'meets' : 'MISSES');
console.log(`change requests: ${TOUCHED} pages touched on each side of a ${ids.length}-page space, ${RUNS} runs (reference: p99 < ${TARGET_P99_MS} ms)`);
console.log(`  ${summary('POST .../update (outdated)', update)}  ${verdict(update)} the target`);
console.log(`  ${summary('POST .../merge (main moved)', merge)}  ${verdict(merge)} the target`);
await api.close();
process.exit(0);
