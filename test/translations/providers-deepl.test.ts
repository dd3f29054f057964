import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { ProviderError, type TranslateRequest } from '../../src/domain/translations/provider.ts';
import { translationProviderFrom } from '../../src/domain/translations/providers/index.ts';
import { failing, startFakeTranslationApi, type FakeTranslationApi } from '../support/fake-translation-api.ts';

const KEY = 'deepl-0f1e2d3c-4b5a-6978-8a9b-abcdefabcdef';
const TRANSLATE = 'POST /v2/translate';
const WORDS: Record<string, string> = { Press: 'Drücken Sie', Continue: 'Weiter', to: 'um', see: 'sehen', and: 'und' };

/** DeepL in XML mode: words outside tags translated; empty tags answered in their long form, as it may. */
const engine = (body: any) => ({
  json: {
    translations: (body.text as string[]).map((xml) => ({
      detected_source_language: 'EN',
      text: xml
        .split(/(<[^>]+>)/)
        .map((part, i) => (i % 2 ? part.replace(/^<x (.*)\/>$/, '<x $1></x>') : part.replace(/[A-Za-z]+/g, (w) => WORDS[w] ?? w)))
        .join(''),
    })),
  },
});

let fake: FakeTranslationApi;
let waits: number[];
let glossaryCount: number;

beforeAll(async () => {
  fake = await startFakeTranslationApi({});
});
beforeEach(() => {
  fake.seen.length = 0;
  glossaryCount = 0;
  fake.answer(TRANSLATE, engine);
  fake.answer('GET /v2/glossaries', () => ({ json: { glossaries: [] } }));
  fake.answer('POST /v2/glossaries', (body) => ({
    status: 201,
    json: { glossary_id: `g-${++glossaryCount}`, ready: true, name: body.name, source_lang: body.source_lang, target_lang: body.target_lang, creation_time: '2026-01-01T00:00:00Z', entry_count: 1 },
  }));
  waits = [];
});
afterAll(() => fake.close());

function provider(env: Record<string, string> = {}) {
  const config = loadConfig({ TRANSLATION_PROVIDER: 'deepl', TRANSLATION_URL: fake.url, TRANSLATION_API_KEY: KEY, ...env });
  return translationProviderFrom(config, { sleep: async (ms) => void waits.push(ms) });
}

const request = (segments: string[], more: Partial<TranslateRequest> = {}): TranslateRequest => ({ from: 'en', to: 'de', instructions: '', glossary: [], segments, ...more });
const GLOSSARY = [{ source: 'pull request', target: 'Pull-Request' }];

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as Error).message).not.toContain(KEY);
  return err as ProviderError;
}

describe('DeepL translation provider', () => {
  it('posts XML text with its auth key header, tag handling and context, and restores the tokens', async () => {
    const out = await provider().translate(request(['Press ⟦b1⟧Continue⟦/b1⟧ to see ⟦2⟧ & ⟦3⟧'], { instructions: 'A developer guide.' }));
    expect(out).toEqual(['Drücken Sie ⟦b1⟧Weiter⟦/b1⟧ um sehen ⟦2⟧ & ⟦3⟧']);
    const [call] = fake.calls(TRANSLATE);
    expect(call!.headers.authorization).toBe(`DeepL-Auth-Key ${KEY}`);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.body).toEqual({
      text: ['Press <m id="1">Continue</m> to see <x id="2"/> &amp; <x id="3"/>'],
      source_lang: 'EN',
      target_lang: 'DE',
      tag_handling: 'xml',
      ignore_tags: ['x'],
      context: 'A developer guide.',
    });
  });

  it("uses DeepL's target variants and refuses languages it lacks without calling it", async () => {
    const p = provider();
    for (const [from, to] of [['de', 'en'], ['en', 'pt-br'], ['en', 'pt'], ['en', 'zh'], ['pt-br', 'no']]) await p.translate(request(['x'], { from, to }));
    expect(fake.calls(TRANSLATE).map((c) => [c.body.source_lang, c.body.target_lang])).toEqual([
      ['DE', 'EN-US'],
      ['EN', 'PT-BR'],
      ['EN', 'PT-PT'],
      ['EN', 'ZH-HANS'],
      ['PT', 'NB'],
    ]);
    expect((await failure(p.translate(request(['x'], { to: 'yue' })))).code).toBe('UNSUPPORTED_LANGUAGE');
    expect((await failure(p.translate(request(['x'], { from: 'hi' })))).code).toBe('UNSUPPORTED_LANGUAGE');
    expect(fake.calls(TRANSLATE)).toHaveLength(5);
  });

  it('creates a glossary once per content and reuses it, also for concurrent runs', async () => {
    const p = provider();
    await Promise.all(Array.from({ length: 5 }, () => p.translate(request(['Press'], { glossary: GLOSSARY }))));
    await p.translate(request(['Press'], { glossary: GLOSSARY }));
    const created = fake.calls('POST /v2/glossaries');
    expect(created).toHaveLength(1);
    expect(created[0]!.headers.authorization).toBe(`DeepL-Auth-Key ${KEY}`);
    expect(created[0]!.body).toMatchObject({ source_lang: 'en', target_lang: 'de', entries: 'pull request\tPull-Request', entries_format: 'tsv' });
    expect(created[0]!.body.name).toMatch(/^vellum-[0-9a-f]{24}$/);
    expect(fake.calls(TRANSLATE).map((c) => c.body.glossary_id)).toEqual(Array(6).fill('g-1'));
    // Other terms are another glossary.
    await p.translate(request(['Press'], { glossary: [...GLOSSARY, { source: 'branch', target: 'Zweig' }] }));
    expect(fake.calls('POST /v2/glossaries')).toHaveLength(2);
    expect(fake.calls(TRANSLATE).at(-1)!.body.glossary_id).toBe('g-2');
  });

  it('reuses a glossary of the same content DeepL already has (made before a restart)', async () => {
    await provider().translate(request(['Press'], { glossary: GLOSSARY }));
    const name = fake.calls('POST /v2/glossaries')[0]!.body.name;
    fake.answer('GET /v2/glossaries', () => ({ json: { glossaries: [{ glossary_id: 'kept', name, ready: true }] } }));
    await provider().translate(request(['Press'], { glossary: GLOSSARY }));
    expect(fake.calls('POST /v2/glossaries')).toHaveLength(1);
    expect(fake.calls(TRANSLATE).at(-1)!.body.glossary_id).toBe('kept');
  });

  it('sends 50 texts per request by default', async () => {
    const segments = Array.from({ length: 120 }, (_, i) => `Press ⟦${i}⟧`);
    const out = await provider().translate(request(segments));
    expect(fake.calls(TRANSLATE).map((c) => c.body.text.length)).toEqual([50, 50, 20]);
    expect(out).toEqual(segments.map((s) => s.replace('Press', 'Drücken Sie')));
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    fake.answer(TRANSLATE, failing(1, 429, engine, { 'retry-after': at }));
    expect(await provider().translate(request(['Press']))).toEqual(['Drücken Sie']);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
    expect(waits[0]).toBeLessThanOrEqual(30_000);
  });

  it('reports 456 as QUOTA_EXCEEDED and 403 as AUTH_FAILED at once, without the key', async () => {
    fake.answer(TRANSLATE, () => ({ status: 456, json: { message: 'Quota exceeded' } }));
    expect((await failure(provider().translate(request(['Press'])))).code).toBe('QUOTA_EXCEEDED');
    fake.answer(TRANSLATE, () => ({ status: 403, json: { message: `Wrong key ${KEY}` } }));
    expect((await failure(provider().translate(request(['Press'])))).code).toBe('AUTH_FAILED');
    expect(fake.calls(TRANSLATE)).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('reports 5xx as UNAVAILABLE after the retries', async () => {
    fake.answer(TRANSLATE, () => ({ status: 502, text: 'bad gateway' }));
    expect((await failure(provider().translate(request(['Press'])))).code).toBe('UNAVAILABLE');
    expect(fake.calls(TRANSLATE)).toHaveLength(4);
  });

  it('does not keep a glossary creation that failed', async () => {
    fake.answer('POST /v2/glossaries', failing(1, 400, (body) => ({ status: 201, json: { glossary_id: 'g-ok', name: body.name } })));
    const p = provider();
    expect((await failure(p.translate(request(['Press'], { glossary: GLOSSARY })))).code).toBe('BAD_RESPONSE');
    await p.translate(request(['Press'], { glossary: GLOSSARY }));
    expect(fake.calls(TRANSLATE).at(-1)!.body.glossary_id).toBe('g-ok');
  });
});
