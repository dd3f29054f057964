// PDF export of a 200-page space (10 chapters of 20 pages; prose, a nested list, a table, a
// code block, a hint; one PNG per chapter), rendered by `runExport` as the `exports.pdf` job
// does (bodies and images read from the database and the blob store, Markdown laid out,
// the PDF stored). Reference, in the same run: pdfkit writing the same pages' Markdown as
// plain text with the same fonts — the floor of what any layout on pdfkit costs. Then the
// cache hit: `GET /v1/spaces/{id}/pdf` for a revision already rendered.
// Usage: bash scripts/bench.sh pdf-export [runs]
import PDFDocument from 'pdfkit';
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import { storeFiles } from '../src/domain/content/files.ts';
import { requestExport } from '../src/domain/exports/pdf-exports.ts';
import { registerFonts } from '../src/domain/exports/pdf-theme.ts';
import { runExport } from '../src/domain/exports/run-export.ts';
import { makePng } from '../test/support/png.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { benchOrg } from './support/bench-org.ts';
import { paragraph, pageMarkdown, rng, vocabulary, wordPicker } from './support/corpus.ts';
import { summary, timeRuns } from './support/stats.ts';

const RUNS = Number(process.argv[2] ?? 5);
const CHAPTERS = 10;
const PER_CHAPTER = 20;
const random = rng(7);
const pick = wordPicker(vocabulary(3000, random), random);

const page = (i: number, image: boolean) =>
  `${pageMarkdown(`Page ${i}`, pick, random)}\n- ${pick()} ${pick()}\n- ${pick()}\n  - ${pick()} ${pick()}\n  - ${pick()}\n\n` +
  `| Option | Default | Meaning |\n| --- | --- | --- |\n| ${pick()} | ${i} | ${paragraph(pick, 8)} |\n| ${pick()} | off | ${paragraph(pick, 12)} |\n\n` +
  `\`\`\`ts\nconst client = new Client({ page: ${i} });\nawait client.${pick()}();\n\`\`\`\n\n` +
  `{% hint style="info" %}\n${paragraph(pick, 20)}\n{% endhint %}\n` +
  (image ? `\n![Diagram ${i}](diagram-${Math.floor(i / PER_CHAPTER)}.png)\n` : '');

const api = await startBenchApi(await benchDatabaseUrl());
const em = api.rt.orm.em.fork();
const { token, newSpace } = await benchOrg(em);
const space = await newSpace('Handbook');
const files = await storeFiles(em, api.rt.blobs, Array.from({ length: CHAPTERS }, (_, c) => ({ name: `diagram-${c}.png`, contentType: 'image/png', bytes: makePng(800, 400 + c) })));
const markdown: string[] = [];
const chapters = Array.from({ length: CHAPTERS }, (_, c) => ({
  kind: 'document' as const,
  title: `Chapter ${c}`,
  markdown: (markdown[c * PER_CHAPTER] = page(c * PER_CHAPTER, true)),
  children: Array.from({ length: PER_CHAPTER - 1 }, (_, p) => {
    const i = c * PER_CHAPTER + p + 1;
    return { kind: 'document' as const, title: `Page ${c}.${p}`, markdown: (markdown[i] = page(i, false)) };
  }),
}));
await commitOnCurrent(em, space, async () => ({ pages: chapters, files }), () => undefined);
await em.refresh(space);

const scope = { pageId: null, only: false };
let last = { pages: 0, bytes: 0 };
const rendered = await timeRuns(RUNS, async () => {
  // A fresh run of the one export row each time: the render itself, not the cache.
  await em.execute('delete from pdf_exports where revision_id = ?', [space.revision]);
  let run = { exportId: '', runId: '' };
  await requestExport(em, { spaceId: space.id, revisionId: space.revision, scope }, (_tx, r) => (run = r));
  const outcome = await runExport(api.rt.orm.em.fork(), api.rt.blobs, run);
  if (outcome.outcome !== 'ready') throw new Error(`export ${outcome.outcome}`);
  last = outcome;
});

const floor = await timeRuns(RUNS, async () => {
  const doc = new PDFDocument({ size: 'A4', margin: 56, autoFirstPage: false });
  registerFonts(doc);
  const ended = new Promise((r) => doc.on('end', r));
  doc.on('data', () => undefined);
  for (const md of markdown) doc.addPage().font('sans').fontSize(10.5).text(md);
  doc.end();
  await ended;
});

const hits = await timeRuns(50, () => api.get(`/v1/spaces/${space.id}/pdf`, token));

console.log(`PDF export of ${CHAPTERS * PER_CHAPTER} pages (${CHAPTERS} PNGs), ${RUNS} runs: ${(last.bytes / 1024 / 1024).toFixed(2)} MB PDF`);
console.log(summary('  render + store (runExport)', rendered));
console.log(summary('  reference: pdfkit, same text unformatted', floor));
console.log(`  ratio (p50): ${(rendered.sort((a, b) => a - b)[Math.floor(RUNS / 2)]! / floor.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!).toFixed(1)}x`);
console.log(summary('  cache hit: GET /v1/spaces/{id}/pdf', hits));
console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
await api.close();
