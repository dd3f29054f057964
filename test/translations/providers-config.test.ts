import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { pseudoProvider } from '../../src/domain/translations/provider.ts';
import { translationProviderFrom } from '../../src/domain/translations/providers/index.ts';
import { retryAfterMs } from '../../src/domain/translations/providers/provider-http.ts';
import { fromHtml, fromXml, toHtml, toXml } from '../../src/domain/translations/providers/token-markup.ts';

const bad = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a configuration error');
};

describe('translation provider configuration', () => {
  it('is the offline pseudo provider by default', () => {
    const config = loadConfig({});
    expect(config.translation).toMatchObject({ provider: 'pseudo' });
    expect(translationProviderFrom(config)).toBe(pseudoProvider);
  });

  it('builds each provider with its default batch, or TRANSLATION_BATCH', () => {
    const openai = translationProviderFrom(loadConfig({ TRANSLATION_PROVIDER: 'openai', TRANSLATION_URL: 'http://127.0.0.1:11434/v1', TRANSLATION_MODEL: 'llama3' }));
    expect([openai.name, openai.batchSize]).toEqual(['openai', 20]);
    const lt = translationProviderFrom(loadConfig({ TRANSLATION_PROVIDER: 'libretranslate', TRANSLATION_URL: 'http://lt:5000', TRANSLATION_BATCH: '7' }));
    expect([lt.name, lt.batchSize]).toEqual(['libretranslate', 7]);
    const deepl = translationProviderFrom(loadConfig({ TRANSLATION_PROVIDER: 'deepl', TRANSLATION_API_KEY: 'k' }));
    expect([deepl.name, deepl.batchSize]).toEqual(['deepl', 50]);
  });

  it('sends DeepL free keys to the free host unless TRANSLATION_URL says otherwise', () => {
    const url = (env: Record<string, string>) => (loadConfig({ TRANSLATION_PROVIDER: 'deepl', ...env }).translation as { url: string }).url;
    expect(url({ TRANSLATION_API_KEY: 'abc:fx' })).toBe('https://api-free.deepl.com');
    expect(url({ TRANSLATION_API_KEY: 'abc' })).toBe('https://api.deepl.com');
    expect(url({ TRANSLATION_API_KEY: 'abc:fx', TRANSLATION_URL: 'https://deepl-proxy.internal/' })).toBe('https://deepl-proxy.internal');
  });

  it('names the variable a provider is missing', () => {
    expect(bad({ TRANSLATION_PROVIDER: 'openai', TRANSLATION_URL: 'https://api.openai.com/v1' })).toContain('TRANSLATION_PROVIDER=openai needs TRANSLATION_MODEL');
    expect(bad({ TRANSLATION_PROVIDER: 'openai' })).toContain('needs TRANSLATION_URL and TRANSLATION_MODEL');
    expect(bad({ TRANSLATION_PROVIDER: 'libretranslate' })).toContain('TRANSLATION_PROVIDER=libretranslate needs TRANSLATION_URL');
    expect(bad({ TRANSLATION_PROVIDER: 'deepl' })).toContain('TRANSLATION_PROVIDER=deepl needs TRANSLATION_API_KEY');
  });

  it('refuses variables the provider does not use (usually a forgotten TRANSLATION_PROVIDER)', () => {
    expect(bad({ TRANSLATION_URL: 'http://lt:5000' })).toContain('TRANSLATION_URL not used by TRANSLATION_PROVIDER=pseudo');
    expect(bad({ TRANSLATION_PROVIDER: 'deepl', TRANSLATION_API_KEY: 'k', TRANSLATION_MODEL: 'x' })).toContain('TRANSLATION_MODEL not used by TRANSLATION_PROVIDER=deepl');
  });

  it('refuses unknown providers, bad URLs and out-of-range batches', () => {
    expect(bad({ TRANSLATION_PROVIDER: 'google' })).toContain('TRANSLATION_PROVIDER');
    expect(bad({ TRANSLATION_PROVIDER: 'libretranslate', TRANSLATION_URL: 'ftp://lt' })).toContain('TRANSLATION_URL');
    expect(bad({ TRANSLATION_PROVIDER: 'libretranslate', TRANSLATION_URL: 'http://lt', TRANSLATION_BATCH: '0' })).toContain('TRANSLATION_BATCH');
    expect(bad({ TRANSLATION_PROVIDER: 'deepl', TRANSLATION_API_KEY: 'k', TRANSLATION_BATCH: '51' })).toContain('TRANSLATION_BATCH is at most 50');
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('placeholder tokens as markup', () => {
  const segment = 'Use ⟦b1⟧the ⟦b2⟧new⟦/b2⟧ API⟦/b1⟧ at ⟦3⟧ if a < b & "c"';

  it('round-trips through DeepL XML, closing nested pairs in order', () => {
    expect(toXml(segment)).toBe('Use <m id="1">the <m id="2">new</m> API</m> at <x id="3"/> if a &lt; b &amp; "c"');
    expect(fromXml(toXml(segment))).toBe(segment);
    expect(fromXml('<x id="3"></x> <m id="1">a <x id = "4" /></m> &#39;&#x41;&quot;')).toBe('⟦3⟧ ⟦b1⟧a ⟦4⟧⟦/b1⟧ \'A"');
  });

  it('round-trips through LibreTranslate HTML, dropping other tags the engine added', () => {
    expect(toHtml('⟦1⟧ & ⟦b2⟧x⟦/b2⟧')).toBe('<code translate="no">⟦1⟧</code> &amp; <code translate="no">⟦b2⟧</code>x<code translate="no">⟦/b2⟧</code>');
    expect(fromHtml(toHtml(segment))).toBe(segment);
    expect(fromHtml('<p><code translate="no"> ⟦1⟧ </code> a&nbsp;b</p>')).toBe('⟦1⟧ a\u00a0b');
  });
});
