// A translation run over a 1,000-page space, as the `translations.run` job executes it
// (checkpoint per page, one result revision): through the offline `pseudo` provider (and how
// much of what must survive translation byte-identical did), then through the OpenAI-compatible
// provider against a local fake server answering every request after 50 ms.
// Usage: bash scripts/bench.sh translation-run
import { commitOnCurrent } from '../src/domain/content/commit-revision.ts';
import { loadBodies, loadTree, flattenTree } from '../src/domain/content/revision-reader.ts';
import { Revision } from '../src/domain/entities/revision.entity.ts';
import { Space } from '../src/domain/entities/space.entity.ts';
import { Translation } from '../src/domain/entities/translation.entity.ts';
import { pseudoProvider, type TranslationProvider } from '../src/domain/translations/provider.ts';
import { requestRun } from '../src/domain/translations/request-run.ts';
import { executeRun, type RunOutcome } from '../src/domain/translations/run-translation.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config/env.ts';
import { pseudoTranslate } from '../src/domain/translations/pseudo-translate.ts';
import { translationProviderFrom } from '../src/domain/translations/providers/index.ts';
import { benchDatabaseUrl } from './bench-env.ts';
import { startBenchApi } from './support/bench-api.ts';
import { benchOrg } from './support/bench-org.ts';
import { pageMarkdown, rng, vocabulary, wordPicker } from './support/corpus.ts';

const PAGES = 1000;
const random = rng(10);
const pick = wordPicker(vocabulary(3000, random), random);

/** A page as docs are written: prose, a code block, a link, inline code and a GitBook hint. */
const page = (i: number) =>
  `${pageMarkdown(`Page ${i}`, pick, random)}\n\`\`\`ts\nconst client = new Client({ page: ${i} }); // ${pick()}\n\`\`\`\n\n` +
  `Read [the ${pick()} guide](https://docs.example.test/guides/${i}?ref=bench#top) and call \`client.run(${i})\`.\n\n` +
  `{% hint style="warning" %}\n${pick()} ${pick()} ${pick()} before ${pick()}.\n{% endhint %}\n`;

const api = await startBenchApi(await benchDatabaseUrl());
const em = api.rt.orm.em.fork();
const { org, newSpace } = await benchOrg(em);
const source = await newSpace('Handbook');
const chapters = Array.from({ length: 20 }, (_, c) => ({
  kind: 'document' as const,
  title: `Chapter ${c}`,
  markdown: page(c * 50),
  children: Array.from({ length: 49 }, (_, p) => ({ kind: 'document' as const, title: `Page ${c}.${p}`, markdown: page(c * 50 + p + 1) })),
}));
await commitOnCurrent(em, source, async () => ({ pages: chapters }), () => undefined);

async function translate(provider: TranslationProvider, language: string) {
  const t = em.create(Translation, { organization: org, sourceSpace: source, sourceLanguage: 'en', language, instructions: { object: 'document', data: {}, nodes: [] } });
  await em.flush();
  return async (): Promise<{ ms: number; outcome: Extract<RunOutcome, { completed: true }> }> => {
    let runId = '';
    await requestRun(em, t.id, (_tx, run) => (runId = run.runId));
    const started = performance.now();
    // The result's re-index is left unrecorded: this measures the run alone.
    const outcome = await executeRun(api.rt.orm.em.fork(), t.id, runId, { provider, now: () => new Date(), onChange: () => undefined, schedule: () => undefined });
    if (!('completed' in outcome)) throw new Error(`run skipped: ${outcome.skipped}`);
    return { ms: performance.now() - started, outcome };
  };
}

const perSecond = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en')}/s`;

console.log(`translation run: ${PAGES} pages (20 chapters of 50), each with prose, a code block, a link, inline code and a hint`);
console.log('  issue 10 asks for: a 1,000-page space through `pseudo` (pages/s, words/s) and through a fake OpenAI-compatible server answering after 50 ms (requests per page, pages/s)');
const pseudo = await translate(pseudoProvider, 'fr');
const first = await pseudo();
const { pages, words, requests, rejected } = first.outcome;
console.log(`  pseudo, first run:     ${pages} pages, ${words.toLocaleString('en')} words in ${Math.round(first.ms)} ms — ${perSecond(pages, first.ms)} pages, ${perSecond(words, first.ms)} words; ${requests} provider calls, ${rejected} segments rejected`);
const again = await pseudo();
console.log(`  pseudo, nothing changed: ${again.outcome.pages} pages translated in ${Math.round(again.ms)} ms (hash check and one result revision)`);
await report(first.outcome.revision);

await throughOpenAi();

await api.close();
process.exit(0);

/** How much of what must survive byte-identical did: code blocks, link targets, GitBook blocks. */
async function report(revisionId: string) {
  const kinds = { 'code blocks': /```[\s\S]*?```/g, 'link targets': /\]\([^)]*\)/g, 'GitBook blocks': /\{%[^%]*%\}/g, 'inline code': /`[^`\n]+`/g };
  const sourceBodies = await bodiesOf((await em.findOneOrFail(Revision, { id: (await em.findOneOrFail(Space, { id: source.id })).revision })).pages);
  const resultBodies = await bodiesOf((await em.findOneOrFail(Revision, { id: revisionId })).pages);
  for (const [name, re] of Object.entries(kinds)) {
    let total = 0;
    let kept = 0;
    sourceBodies.forEach((body, i) => {
      const found = body.match(re) ?? [];
      const translated = resultBodies[i] ?? '';
      total += found.length;
      kept += found.filter((s) => translated.includes(s)).length;
    });
    console.log(`  byte-identical after translation: ${name} ${kept}/${total} (${((kept / Math.max(total, 1)) * 100).toFixed(1)} %)`);
  }
}

async function bodiesOf(roots: string[]): Promise<string[]> {
  const pages = flattenTree(await loadTree(em, roots));
  const bodies = await loadBodies(em, pages.flatMap((p) => (p.node.bodyHash ? [p.node.bodyHash] : [])));
  return pages.map((p) => bodies.get(p.node.bodyHash ?? '')?.markdown ?? '');
}

/**
 * The `openai` provider (default batch) against a local chat-completions server that answers
 * after 50 ms with the segments pseudo-translated, as a JSON object the provider expects.
 */
async function throughOpenAi() {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ content: string }> };
    const segments = JSON.parse(body.messages.at(-1)!.content) as string[];
    const content = JSON.stringify({ translations: segments.map(pseudoTranslate) });
    await new Promise((r) => setTimeout(r, 50));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'bench', object: 'chat.completion', created: 1, model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  try {
    const provider = translationProviderFrom(loadConfig({ ...process.env, TRANSLATION_PROVIDER: 'openai', TRANSLATION_URL: url, TRANSLATION_MODEL: 'bench' }));
    const run = await (await translate(provider, 'de'))();
    const { pages: n, requests: calls, rejected: bad } = run.outcome;
    console.log(
      `  openai, fake server answering after 50 ms (batch ${provider.batchSize}): ${n} pages in ${Math.round(run.ms)} ms — ${perSecond(n, run.ms)} pages; ` +
        `${(calls / n).toFixed(2)} requests per page; ${bad} segments rejected`,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
