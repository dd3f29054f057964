import type { Config } from '../../../../config/env.ts';
import { configuredEndpointHttp } from '../../ai/openai-client.ts';
import { pseudoProvider, type TranslationProvider } from '../provider.ts';
import { deeplProvider } from './deepl-provider.ts';
import { libreTranslateProvider } from './libretranslate-provider.ts';
import { openAiProvider } from './openai-provider.ts';
import { DEFAULT_RETRY, sleep, type ProviderEndpoint, type RetryPolicy, type Sleep } from './provider-http.ts';

/** Segments per call unless TRANSLATION_BATCH says otherwise (DeepL takes at most 50 texts). */
const DEFAULT_BATCH = { openai: 20, libretranslate: 25, deepl: 50 } as const;

export type ProviderDeps = {
  /** Tests shorten the waits or record them instead of waiting. */
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
};

/** The provider TRANSLATION_PROVIDER names, built once per process (DeepL glossary ids are cached in it). */
export function translationProviderFrom(config: Pick<Config, 'translation' | 'outbound'>, deps: ProviderDeps = {}): TranslationProvider {
  const t = config.translation;
  if (t.provider === 'pseudo') return pseudoProvider;
  const endpoint: ProviderEndpoint = {
    url: t.url,
    http: configuredEndpointHttp(t.url, { timeoutMs: t.timeoutMs, maxBytes: config.outbound.maxBytes }),
    secret: t.apiKey,
    retry: { ...DEFAULT_RETRY, ...deps.retry },
    sleep: deps.sleep ?? sleep,
  };
  const batch = t.batch ?? DEFAULT_BATCH[t.provider];
  switch (t.provider) {
    case 'openai':
      return openAiProvider({ ...endpoint, model: t.model, apiKey: t.apiKey }, batch);
    case 'libretranslate':
      return libreTranslateProvider({ ...endpoint, apiKey: t.apiKey }, batch);
    case 'deepl':
      return deeplProvider({ ...endpoint, apiKey: t.apiKey }, batch);
  }
}
