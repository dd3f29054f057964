import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { ProviderError, type TranslateRequest } from '../../src/domain/translations/provider.ts';
import { translationProviderFrom } from '../../src/domain/translations/providers/index.ts';
import { chatAnswer } from '../support/fake-openai.ts';
import { failing, startFakeTranslationApi, type FakeTranslationApi } from '../support/fake-translation-api.ts';

const KEY = 'sk-test-translation-5a4b3c2d1e0f';
const ROUTE = 'POST /v1/chat/completions';
let fake: FakeTranslationApi;
let waits: number[];

/** A model that "translates" by tagging each segment, tokens untouched. */
const model = (body: any) => {
  const segments: string[] = JSON.parse(body.messages[1].content);
  return chatAnswer(JSON.stringify({ translations: segments.map((s) => `FR: ${s}`) }));
};

beforeAll(async () => {
  fake = await startFakeTranslationApi({});
});
beforeEach(() => {
  fake.seen.length = 0;
  fake.answer(ROUTE, model);
  waits = [];
});
afterAll(() => fake.close());

function provider(env: Record<string, string> = {}) {
  const config = loadConfig({ TRANSLATION_PROVIDER: 'openai', TRANSLATION_URL: `${fake.url}/v1/`, TRANSLATION_MODEL: 'gpt-4o-mini', TRANSLATION_API_KEY: KEY, ...env });
  return translationProviderFrom(config, { sleep: async (ms) => void waits.push(ms) });
}

const request = (segments: string[], more: Partial<TranslateRequest> = {}): TranslateRequest => ({ from: 'en', to: 'pt-br', instructions: '', glossary: [], segments, ...more });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as Error).message).not.toContain(KEY);
  return err as ProviderError;
}

describe('OpenAI-compatible translation provider', () => {
  it('posts one chat completion asking for JSON, with the languages, token rule, glossary and instructions in the system prompt', async () => {
    const segments = ['Click ⟦b1⟧Save⟦/b1⟧ to keep ⟦2⟧.', 'Open a pull request.'];
    const out = await provider().translate(
      request(segments, { instructions: 'Use the informal "você".', glossary: [{ source: 'pull request', target: 'pedido de integração' }] }),
    );
    expect(out).toEqual(['FR: Click ⟦b1⟧Save⟦/b1⟧ to keep ⟦2⟧.', 'FR: Open a pull request.']);
    const [call] = fake.calls(ROUTE);
    expect(fake.seen).toHaveLength(1);
    expect(call!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, response_format: { type: 'json_object' } });
    const [system, user] = call!.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('from English to Brazilian Portuguese');
    expect(system.content).toContain('⟦1⟧');
    expect(system.content).toContain('exactly 2 strings');
    expect(system.content).toContain('- pull request → pedido de integração');
    expect(system.content).toContain('Use the informal "você".');
    expect(user).toEqual({ role: 'user', content: JSON.stringify(segments) });
  });

  it('sends TRANSLATION_BATCH segments per request and keeps the order across batches', async () => {
    const segments = Array.from({ length: 45 }, (_, i) => `Segment ${i} ⟦${i}⟧`);
    const out = await provider({ TRANSLATION_BATCH: '20' }).translate(request(segments));
    expect(fake.calls(ROUTE).map((c) => JSON.parse(c.body.messages[1].content).length)).toEqual([20, 20, 5]);
    expect(out).toEqual(segments.map((s) => `FR: ${s}`));
  });

  it('accepts an answer wrapped in a code fence', async () => {
    fake.answer(ROUTE, () => chatAnswer('```json\n{"translations": ["Olá ⟦1⟧"]}\n```'));
    expect(await provider().translate(request(['Hello ⟦1⟧']))).toEqual(['Olá ⟦1⟧']);
  });

  it('calls an answer with the wrong number of translations, or no JSON, BAD_RESPONSE', async () => {
    fake.answer(ROUTE, () => chatAnswer(JSON.stringify({ translations: ['only one'] })));
    const short = await failure(provider().translate(request(['a', 'b'])));
    expect(short.code).toBe('BAD_RESPONSE');
    expect(short.message).toContain('1 translations for 2 segments');
    fake.answer(ROUTE, () => chatAnswer('Sure! Here are your translations.'));
    expect((await failure(provider().translate(request(['a'])))).code).toBe('BAD_RESPONSE');
    expect(fake.seen).toHaveLength(2); // a bad answer is not retried
  });

  it('waits as long as a 429 Retry-After says, then succeeds', async () => {
    fake.answer(ROUTE, failing(1, 429, model, { 'retry-after': '7' }));
    expect(await provider().translate(request(['Hi']))).toEqual(['FR: Hi']);
    expect(waits).toEqual([7000]);
    expect(fake.seen).toHaveLength(2);
  });

  it('gives up at once with RATE_LIMITED when Retry-After asks for more than the wait budget', async () => {
    fake.answer(ROUTE, failing(5, 429, model, { 'retry-after': '3600' }));
    expect((await failure(provider().translate(request(['Hi'])))).code).toBe('RATE_LIMITED');
    expect(waits).toEqual([]);
    expect(fake.seen).toHaveLength(1);
  });

  it('reports 401 as AUTH_FAILED without retrying, and without the key the server echoed', async () => {
    fake.answer(ROUTE, () => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } }));
    const err = await failure(provider().translate(request(['Hi'])));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toContain('[REDACTED]');
    expect(fake.seen).toHaveLength(1);
  });

  it('reports a server that keeps failing as UNAVAILABLE after bounded, growing waits', async () => {
    fake.answer(ROUTE, () => ({ status: 503, json: { error: { message: 'overloaded' } } }));
    expect((await failure(provider().translate(request(['Hi'])))).code).toBe('UNAVAILABLE');
    expect(fake.seen).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('reports a server that does not answer in time as TIMEOUT', async () => {
    fake.answer(ROUTE, () => 'hang');
    const err = await failure(provider({ TRANSLATION_TIMEOUT_MS: '150' }).translate(request(['Hi'])));
    expect(err.code).toBe('TIMEOUT');
    expect(fake.seen).toHaveLength(4);
  });

  it('stops when the caller cancels, with the cancellation rather than a provider error', async () => {
    fake.answer(ROUTE, () => 'hang');
    const controller = new AbortController();
    const pending = provider().translate(request(['Hi']), controller.signal);
    setTimeout(() => controller.abort(new Error('run cancelled')), 50);
    await expect(pending).rejects.toThrow('run cancelled');
    expect(fake.seen).toHaveLength(1);
  });
});
