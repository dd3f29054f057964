import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { aiServicesFrom } from '../../src/domain/ai/ai-services.ts';
import { extractIssues } from '../../src/domain/conversations/extract-issues.ts';
import type { ConversationPart } from '../../src/domain/entities/conversation.entity.ts';
import { createLogger } from '../../src/runtime.ts';
import { chatAnswer, embeddingsAnswer, fakeVector, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.ts';

const KEY = 'sk-test-9f8e7d6c5b4a39281706';
let fake: FakeOpenAi;
let logged: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterEach(() => {
  fake.reset();
  logged = [];
});
afterAll(() => fake.close());

/** The services as a worker builds them from its environment, logging through the real (redacting) logger. */
function services(env: Record<string, string> = {}) {
  const config = loadConfig({
    EMBEDDINGS_URL: fake.url,
    EMBEDDINGS_MODEL: 'text-embedding-3-small',
    EMBEDDINGS_API_KEY: KEY,
    LLM_URL: fake.url,
    LLM_MODEL: 'gpt-4o-mini',
    LLM_API_KEY: KEY,
    AI_TIMEOUT_MS: '400',
    ...env,
  });
  const log = createLogger({ logLevel: 'warn' }, 'test', { write: (line: string) => void logged.push(line) });
  return aiServicesFrom(config, log, { retryDelayMs: 0 });
}

/** The key appears nowhere a person could read: not in the log, not in a returned value. */
function expectNoKey(...values: unknown[]) {
  for (const v of [...logged, ...values]) expect(JSON.stringify(v ?? null)).not.toContain(KEY);
}

const user = (body: string): ConversationPart => ({ type: 'message', role: 'user', body });

describe('embeddings endpoint', () => {
  it('sends the model, the bearer key and at most 100 inputs per request, and returns vectors in input order', async () => {
    // The server lists each batch's embeddings backwards: the client must order them by index.
    fake.answer('/v1/embeddings', (body) => {
      const answer = embeddingsAnswer(body) as { json: { data: unknown[] } };
      answer.json.data.reverse();
      return answer;
    });
    const texts = Array.from({ length: 250 }, (_, i) => `issue number ${i}`);
    const vectors = await services().embedTexts(texts);
    expect(fake.seen.map((r) => r.body.input.length)).toEqual([100, 100, 50]);
    for (const r of fake.seen) {
      expect(r).toMatchObject({ path: '/v1/embeddings', authorization: `Bearer ${KEY}`, contentType: 'application/json' });
      expect(r.body.model).toBe('text-embedding-3-small');
    }
    expect(vectors).toHaveLength(250);
    expect(vectors![0]).toBeInstanceOf(Float32Array);
    expect(Array.from(vectors![137]!)).toEqual(Array.from(Float32Array.from(fakeVector('issue number 137'))));
  });

  it('sends no Authorization header without a key, and nothing at all for no texts', async () => {
    const ai = services({ EMBEDDINGS_API_KEY: '' });
    expect(await ai.embedTexts([])).toEqual([]);
    expect(fake.seen).toHaveLength(0);
    await ai.embedTexts(['one']);
    expect(fake.seen[0]!.authorization).toBeUndefined();
  });

  it.each([
    ['no data array', { json: { object: 'list' } }],
    ['fewer embeddings than inputs', { json: { data: [{ index: 0, embedding: [1, 2] }] } }],
    ['a repeated index', { json: { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] } }],
    ['vectors of different dimensions', { json: { data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1] }] } }],
    ['text that is not JSON', { text: '<html>gateway</html>' }],
  ])('answers null (offline path) and logs a warning for %s', async (_, answer) => {
    fake.answer('/v1/embeddings', () => answer);
    const result = await services().embedTexts(['first text', 'second text']);
    expect(result).toBeNull();
    expect(logged.join('\n')).toMatch(/embeddings failed; sparse vectors used/);
    // A malformed answer is the provider's doing, not a blip: it is not asked again.
    expect(fake.seen).toHaveLength(1);
    expectNoKey(result);
  });

  it('tries a 500 once more, then succeeds', async () => {
    fake.answer('/v1/embeddings', (body, seen) => (seen.length === 1 ? { status: 500, json: { error: { message: 'overloaded' } } } : embeddingsAnswer(body)));
    expect(await services().embedTexts(['a', 'b'])).toHaveLength(2);
    expect(fake.seen).toHaveLength(2);
    expect(logged).toEqual([]);
  });

  it('gives up after two 500s or two timeouts, and does not retry a 400', async () => {
    fake.answer('/v1/embeddings', () => ({ status: 500, json: { error: { message: 'down' } } }));
    expect(await services().embedTexts(['a'])).toBeNull();
    expect(fake.seen).toHaveLength(2);

    fake.reset();
    fake.answer('/v1/embeddings', () => 'hang');
    expect(await services().embedTexts(['a'])).toBeNull();
    expect(fake.seen).toHaveLength(2);
    expect(logged.join('\n')).toContain('"code":"TIMEOUT"');

    fake.reset();
    fake.answer('/v1/embeddings', () => ({ status: 400, json: { error: { message: 'bad model' } } }));
    expect(await services().embedTexts(['a'])).toBeNull();
    expect(fake.seen).toHaveLength(1);
  });

  it('never logs the key, even when the provider echoes it back', async () => {
    fake.answer('/v1/embeddings', (_b) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } }));
    expect(await services().embedTexts(['a'])).toBeNull();
    expect(logged.join('\n')).toContain('answered 401');
    expect(logged.join('\n')).toContain('[REDACTED]');
    expectNoKey();
  });

  it('answers null at once when no endpoint is configured', async () => {
    const ai = services({ EMBEDDINGS_URL: '', EMBEDDINGS_MODEL: '', EMBEDDINGS_API_KEY: '' });
    expect(await ai.embedTexts(['a'])).toBeNull();
    expect(fake.seen).toHaveLength(0);
  });

  it('reaches the configured loopback host, but not a private address it redirects to', async () => {
    fake.answer('/v1/embeddings', () => ({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }));
    expect(await services().embedTexts(['a'])).toBeNull();
    expect(logged.join('\n')).toMatch(/not a public address/);
    expect(fake.seen).toHaveLength(1);
  });
});

describe('LLM issue titles', () => {
  it('asks the chat endpoint in its format and uses its title and summary', async () => {
    const extract = services().issueExtractor!;
    const issues = await extract({ subject: 'Domains', parts: [user('Hi, how do I <b>connect</b> my domain?'), { type: 'message', role: 'team-member', body: 'Verify it first.' }] });
    expect(issues).toEqual([{ title: 'LLM: Hi, how do I connect my domain?', summary: 'The customer wants to know: Hi, how do I connect my domain?' }]);
    const [req] = fake.seen;
    expect(req).toMatchObject({ path: '/v1/chat/completions', authorization: `Bearer ${KEY}` });
    expect(req!.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, response_format: { type: 'json_object' } });
    expect(req!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(req!.body.messages[1].content).toBe('Subject: Domains\nCustomer: Hi, how do I connect my domain?\nSupport agent: Verify it first.');
  });

  it('takes "no issue" from the model, and cuts a long title to 100 characters', async () => {
    const extract = services().issueExtractor!;
    expect(await extract({ subject: null, parts: [user('Thanks, bye!')] })).toEqual([]);
    fake.answer('/v1/chat/completions', () => chatAnswer('```json\n' + JSON.stringify({ title: 'word '.repeat(60), summary: 'long' }) + '\n```'));
    const [issue] = await extract({ subject: null, parts: [user('How do I export?')] });
    expect(Array.from(issue!.title).length).toBeLessThanOrEqual(100);
  });

  it.each([
    ['a 500 twice', () => ({ status: 500, json: {} })],
    ['a timeout', () => 'hang' as const],
    ['no choices', () => ({ json: { choices: [] } })],
    ['a message that is not JSON', () => chatAnswer('The customer asks about domains.')],
    ['JSON without a title', () => chatAnswer(JSON.stringify({ summary: 'x' }))],
    ['an empty title', () => chatAnswer(JSON.stringify({ title: '  ', summary: 'x' }))],
  ])('falls back to the offline heuristics on %s, logged without the key', async (_, answer) => {
    fake.answer('/v1/chat/completions', answer);
    const conversation = { subject: null, parts: [user('Hello! How do I connect my custom domain?')] };
    const issues = await services().issueExtractor!(conversation);
    expect(issues).toEqual(extractIssues(conversation));
    expect(issues[0]!.title).toBe('How do I connect my custom domain?');
    expect(logged.join('\n')).toMatch(/LLM issue extraction failed; offline heuristics used/);
    expectNoKey(issues);
  });

  it('is not offered without LLM_URL (extraction stays offline)', () => {
    expect(services({ LLM_URL: '', LLM_MODEL: '', LLM_API_KEY: '' }).issueExtractor).toBeNull();
  });
});

describe('LLM cluster labels', () => {
  it('sends titles and terms and returns a short clean label', async () => {
    fake.answer('/v1/chat/completions', () => chatAnswer(JSON.stringify({ label: '"Custom domain setup."' })));
    expect(await services().labelCluster(['How do I connect my domain?', 'CNAME not verified'], ['domain', 'cname'])).toBe('Custom domain setup');
    const content = fake.seen[0]!.body.messages[1].content as string;
    expect(content).toContain('- CNAME not verified');
    expect(content).toContain('Distinctive terms: domain, cname');
  });

  it('answers null on failure or without an endpoint, so the caller keeps its own label', async () => {
    fake.answer('/v1/chat/completions', () => chatAnswer(JSON.stringify({ name: 'x' })));
    expect(await services().labelCluster(['a'], ['b'])).toBeNull();
    expect(logged.join('\n')).toMatch(/LLM cluster label failed/);
    expect(await services({ LLM_URL: '', LLM_MODEL: '', LLM_API_KEY: '' }).labelCluster(['a'], ['b'])).toBeNull();
  });
});

describe('configuration', () => {
  const error = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
  };

  it('is all optional; a URL needs its model, a model or key needs its URL', () => {
    expect(loadConfig({}).ai).toEqual({ embeddings: undefined, chat: undefined, timeoutMs: 20_000 });
    expect(error({ LLM_URL: 'https://llm.example/v1', LLM_API_KEY: KEY })).toMatch(/LLM_URL needs LLM_MODEL/);
    expect(error({ EMBEDDINGS_URL: 'https://e.example/v1' })).toMatch(/EMBEDDINGS_URL needs EMBEDDINGS_MODEL/);
    const stray = error({ EMBEDDINGS_MODEL: 'm', EMBEDDINGS_API_KEY: KEY });
    expect(stray).toMatch(/EMBEDDINGS_MODEL and EMBEDDINGS_API_KEY set without EMBEDDINGS_URL/);
    expect(stray).not.toContain(KEY);
    expect(error({ LLM_URL: 'ftp://llm.example', LLM_MODEL: 'm' })).toMatch(/LLM_URL: expected an http\(s\) URL/);
    expect(loadConfig({ LLM_URL: 'https://llm.example/v1/', LLM_MODEL: 'm' }).ai.chat).toEqual({ url: 'https://llm.example/v1', model: 'm', apiKey: undefined });
  });
});
