import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ProviderError, type GlossaryTerm, type TranslationProvider } from '../provider.ts';
import { callProvider, inBatches, type ProviderEndpoint } from './provider-http.ts';
import { fromXml, toXml } from './token-markup.ts';

/**
 * DeepL (api.deepl.com, or api-free.deepl.com for `:fx` keys): POST /v2/translate in XML
 * mode (token-markup.ts), the translation's instructions as `context`, and its glossary as a
 * DeepL glossary created once per content and language pair.
 */

/** Our languages DeepL translates (2025: Cantonese, Hindi, Malay and Croatian it does not). */
const SUPPORTED = new Set(['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'ko', 'ar', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'he', 'uk', 'sk', 'bg', 'lt', 'lv', 'et', 'sl']);
/** Target codes that need a variant; a source code is always the bare language. */
const TARGET: Record<string, string> = { en: 'EN-US', pt: 'PT-PT', 'pt-br': 'PT-BR', zh: 'ZH-HANS', no: 'NB' };
const SOURCE: Record<string, string> = { 'pt-br': 'PT', no: 'NB' };

export function deeplLanguages(from: string, to: string): { source: string; target: string } {
  const unsupported = [from, to].find((l) => !SUPPORTED.has(l));
  if (unsupported) throw new ProviderError('UNSUPPORTED_LANGUAGE', `DeepL does not translate ${unsupported}`);
  return { source: SOURCE[from] ?? from.toUpperCase(), target: TARGET[to] ?? to.toUpperCase() };
}

const Translations = z.object({ translations: z.array(z.object({ text: z.string() })) });
const GlossaryList = z.object({ glossaries: z.array(z.object({ glossary_id: z.string(), name: z.string() })) });
const Glossary = z.object({ glossary_id: z.string() });

/** TSV rows: DeepL refuses tabs or line breaks inside a term and a source term listed twice. */
function glossaryEntries(glossary: GlossaryTerm[]): string {
  const rows = new Map<string, string>();
  for (const t of glossary) {
    const source = t.source.replace(/\s+/g, ' ').trim();
    const target = t.target.replace(/\s+/g, ' ').trim();
    if (source && target && !rows.has(source)) rows.set(source, target);
  }
  return [...rows].map(([s, t]) => `${s}\t${t}`).join('\n');
}

export function deeplProvider(endpoint: ProviderEndpoint & { apiKey: string }, batchSize: number): TranslationProvider {
  const headers = { authorization: `DeepL-Auth-Key ${endpoint.apiKey}` };
  /** Glossary ids by content: concurrent runs with the same glossary share one creation. */
  const glossaries = new Map<string, Promise<string>>();

  function glossaryId(pair: { source: string; target: string }, entries: string, signal: AbortSignal | undefined): Promise<string> {
    // Glossaries are per language, not variant: a PT one serves PT-BR and PT-PT.
    const langs = { source_lang: pair.source.toLowerCase(), target_lang: pair.target.split('-')[0]!.toLowerCase() };
    const name = `vellum-${createHash('sha256').update(JSON.stringify([langs, entries])).digest('hex').slice(0, 24)}`;
    let id = glossaries.get(name);
    if (!id) {
      id = findOrCreate(name, { ...langs, entries }, signal);
      glossaries.set(name, id);
      id.catch(() => glossaries.delete(name));
    }
    return id;
  }

  /** DeepL keeps glossaries across our restarts (up to 1000 per account): one of the same content is reused. */
  async function findOrCreate(name: string, spec: { source_lang: string; target_lang: string; entries: string }, signal: AbortSignal | undefined): Promise<string> {
    const { glossaries: existing } = await callProvider(endpoint, { method: 'GET', path: '/v2/glossaries', headers, signal }, GlossaryList);
    const found = existing.find((g) => g.name === name);
    if (found) return found.glossary_id;
    const body = { name, ...spec, entries_format: 'tsv' };
    return (await callProvider(endpoint, { method: 'POST', path: '/v2/glossaries', body, headers, signal }, Glossary)).glossary_id;
  }

  async function translateBatch(options: object, segments: string[], signal: AbortSignal | undefined): Promise<string[]> {
    const body = { text: segments.map(toXml), ...options, tag_handling: 'xml', ignore_tags: ['x'] };
    const { translations } = await callProvider(endpoint, { method: 'POST', path: '/v2/translate', body, headers, signal }, Translations);
    if (translations.length !== segments.length) {
      throw new ProviderError('BAD_RESPONSE', `${new URL(endpoint.url).host}/v2/translate answered ${translations.length} texts for ${segments.length}`);
    }
    return translations.map((t) => fromXml(t.text));
  }

  return {
    name: 'deepl',
    batchSize,
    async translate(req, signal) {
      const pair = deeplLanguages(req.from, req.to);
      if (req.segments.length === 0) return [];
      const entries = glossaryEntries(req.glossary);
      const options = {
        source_lang: pair.source,
        target_lang: pair.target,
        ...(entries ? { glossary_id: await glossaryId(pair, entries, signal) } : {}),
        ...(req.instructions.trim() ? { context: req.instructions.trim() } : {}),
      };
      return inBatches(req.segments, batchSize, (batch) => translateBatch(options, batch, signal));
    },
  };
}
