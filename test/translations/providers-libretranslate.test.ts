import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { ProviderError, type TranslateRequest } from '../../src/domain/translations/provider.ts';
import { translationProviderFrom } from '../../src/domain/translations/providers/index.ts';
import { failing, startFakeTranslationApi, type FakeTranslationApi } from '../support/fake-translation-api.ts';

const KEY = 'lt-key-0a1b2c3d4e5f6a7b';
const ROUTE = 'POST /translate';
const LANGUAGES = [
  { code: 'en', name: 'English', targets: ['en', 'fr', 'pt-BR', 'zh-Hans'] },
  { code: 'fr', name: 'French', targets: ['en', 'fr'] },
  { code: 'pt-BR', name: 'Portuguese (Brazil)', targets: ['en', 'pt-BR'] },
  { code: 'zh-Hans', name: 'Chinese', targets: ['en', 'zh-Hans'] },
];
const WORDS: Record<string, string> = { Click: 'Cliquez', to: 'pour', save: 'enregistrer', and: 'et' };

/**
 * LibreTranslate in HTML mode as translatehtml behaves: text outside `<code>` translated word
 * by word, `<code>` elements and character references left as they are.
 */
const engine = (body: any) => ({
  json: {
    translatedText: (body.q as string[]).map((html) =>
      html.split(/(<code\b[^>]*>.*?<\/code>)/).map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z]+/g, (w) => WORDS[w] ?? w))).join(''),
    ),
  },
});

let fake: FakeTranslationApi;
let waits: number[];

beforeAll(async () => {
  fake = await startFakeTranslationApi({});
});
beforeEach(() => {
  fake.seen.length = 0;
  fake.answer('GET /languages', () => ({ json: LANGUAGES }));
  fake.answer(ROUTE, engine);
  waits = [];
});
afterAll(() => fake.close());

function provider(env: Record<string, string> = { TRANSLATION_API_KEY: KEY }) {
  const config = loadConfig({ TRANSLATION_PROVIDER: 'libretranslate', TRANSLATION_URL: fake.url, ...env });
  return translationProviderFrom(config, { sleep: async (ms) => void waits.push(ms) });
}

const request = (segments: string[], more: Partial<TranslateRequest> = {}): TranslateRequest => ({ from: 'en', to: 'fr', instructions: '', glossary: [], segments, ...more });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as Error).message).not.toContain(KEY);
  return err as ProviderError;
}

describe('LibreTranslate translation provider', () => {
  it('posts q as an array of HTML with each token inside <code>, and restores tokens and escaped text', async () => {
    const out = await provider().translate(request(['Click ⟦b1⟧save⟦/b1⟧ to ⟦2⟧', 'a < b and c & d']));
    expect(out).toEqual(['Cliquez ⟦b1⟧enregistrer⟦/b1⟧ pour ⟦2⟧', 'a < b et c & d']);
    const [call] = fake.calls(ROUTE);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.body).toEqual({
      q: ['Click <code translate="no">⟦b1⟧</code>save<code translate="no">⟦/b1⟧</code> to <code translate="no">⟦2⟧</code>', 'a &lt; b and c &amp; d'],
      source: 'en',
      target: 'fr',
      format: 'html',
      api_key: KEY,
    });
  });

  it('sends no api_key when none is configured', async () => {
    await provider({}).translate(request(['Click']));
    expect(fake.calls(ROUTE)[0]!.body).not.toHaveProperty('api_key');
  });

  it("maps languages to the server's codes, asking for its list once", async () => {
    const p = provider();
    await p.translate(request(['Click'], { to: 'pt-br' }));
    await p.translate(request(['Click'], { to: 'zh' }));
    expect(fake.calls(ROUTE).map((c) => c.body.target)).toEqual(['pt-BR', 'zh-Hans']);
    expect(fake.calls('GET /languages')).toHaveLength(1);
    // An older server knows Portuguese only as `pt`.
    fake.answer('GET /languages', () => ({ json: [{ code: 'en', targets: ['pt'] }, { code: 'pt', targets: ['en'] }] }));
    await provider().translate(request(['Click'], { to: 'pt-br' }));
    expect(fake.calls(ROUTE).at(-1)!.body.target).toBe('pt');
  });

  it('reports a language pair the server lacks as UNSUPPORTED_LANGUAGE without translating', async () => {
    expect((await failure(provider().translate(request(['Click'], { to: 'ja' })))).code).toBe('UNSUPPORTED_LANGUAGE');
    expect((await failure(provider().translate(request(['Click'], { from: 'fr', to: 'zh' })))).code).toBe('UNSUPPORTED_LANGUAGE');
    expect(fake.calls(ROUTE)).toHaveLength(0);
  });

  it('sends 25 segments per request by default, in order', async () => {
    const segments = Array.from({ length: 60 }, (_, i) => `Click ⟦${i}⟧`);
    const out = await provider().translate(request(segments));
    expect(fake.calls(ROUTE).map((c) => c.body.q.length)).toEqual([25, 25, 10]);
    expect(out).toEqual(segments.map((s) => s.replace('Click', 'Cliquez')));
  });

  it('honours a 429 Retry-After, then succeeds', async () => {
    fake.answer(ROUTE, failing(1, 429, engine, { 'retry-after': '2' }));
    expect(await provider().translate(request(['Click']))).toEqual(['Cliquez']);
    expect(waits).toEqual([2000]);
  });

  it('reports a refused key as AUTH_FAILED without the key, and a broken server as UNAVAILABLE after retries', async () => {
    fake.answer(ROUTE, () => ({ status: 403, json: { error: `Invalid API key: ${KEY}` } }));
    expect((await failure(provider().translate(request(['Click'])))).code).toBe('AUTH_FAILED');
    expect(fake.calls(ROUTE)).toHaveLength(1);
    fake.answer(ROUTE, () => ({ status: 500, json: { error: 'boom' } }));
    expect((await failure(provider().translate(request(['Click'])))).code).toBe('UNAVAILABLE');
    expect(fake.calls(ROUTE)).toHaveLength(5);
  });

  it('calls an answer with the wrong number of texts BAD_RESPONSE', async () => {
    fake.answer(ROUTE, () => ({ json: { translatedText: ['one'] } }));
    expect((await failure(provider().translate(request(['a', 'b'])))).code).toBe('BAD_RESPONSE');
  });
});
