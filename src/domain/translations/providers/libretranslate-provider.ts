import { z } from 'zod';
import { ProviderError, type TranslateRequest, type TranslationProvider } from '../provider.ts';
import { callProvider, inBatches, type ProviderEndpoint } from './provider-http.ts';
import { fromHtml, toHtml } from './token-markup.ts';

/**
 * A self-hosted LibreTranslate: POST {url}/translate with `q` an array (answered by an array
 * of `translatedText`), in HTML mode so placeholder tokens ride inside `<code>` untouched.
 * Instructions and glossaries have no equivalent there and are not sent.
 */

const Languages = z.array(z.object({ code: z.string(), targets: z.array(z.string()).optional() }));
const Translated = z.object({ translatedText: z.array(z.string()) });

/**
 * Codes a server may use for one of ours, best first: installations differ by version and
 * by the language models they installed (`pt-BR` or `pb` or only `pt`; `zh-Hans` or `zh`).
 */
const CANDIDATES: Record<string, string[]> = {
  'pt-br': ['pt-BR', 'pb', 'pt'],
  zh: ['zh-Hans', 'zh'],
  no: ['nb', 'no'],
};

export function libreTranslateProvider(endpoint: ProviderEndpoint & { apiKey: string | undefined }, batchSize: number): TranslationProvider {
  let languages: Promise<z.output<typeof Languages>> | undefined;

  /** The server's languages, asked once per process (a failed answer is asked again next time). */
  function serverLanguages(signal: AbortSignal | undefined) {
    languages ??= callProvider(endpoint, { method: 'GET', path: '/languages', signal }, Languages).catch((err: unknown) => {
      languages = undefined;
      throw err;
    });
    return languages;
  }

  async function codes(req: TranslateRequest, signal: AbortSignal | undefined): Promise<{ source: string; target: string }> {
    const list = await serverLanguages(signal);
    const pick = (code: string) => (CANDIDATES[code] ?? [code]).map((c) => list.find((l) => l.code.toLowerCase() === c.toLowerCase())).find(Boolean);
    const source = pick(req.from);
    const target = pick(req.to);
    if (!source || !target || (source.targets && !source.targets.includes(target.code))) {
      throw new ProviderError('UNSUPPORTED_LANGUAGE', `LibreTranslate at ${new URL(endpoint.url).host} does not translate ${req.from} to ${req.to}`);
    }
    return { source: source.code, target: target.code };
  }

  async function translateBatch(pair: { source: string; target: string }, segments: string[], signal: AbortSignal | undefined): Promise<string[]> {
    const body = { q: segments.map(toHtml), ...pair, format: 'html', ...(endpoint.apiKey ? { api_key: endpoint.apiKey } : {}) };
    const { translatedText } = await callProvider(endpoint, { method: 'POST', path: '/translate', body, signal }, Translated);
    if (translatedText.length !== segments.length) {
      throw new ProviderError('BAD_RESPONSE', `${new URL(endpoint.url).host}/translate answered ${translatedText.length} texts for ${segments.length}`);
    }
    return translatedText.map(fromHtml);
  }

  return {
    name: 'libretranslate',
    batchSize,
    async translate(req, signal) {
      if (req.segments.length === 0) return [];
      const pair = await codes(req, signal);
      return inBatches(req.segments, batchSize, (batch) => translateBatch(pair, batch, signal));
    },
  };
}
