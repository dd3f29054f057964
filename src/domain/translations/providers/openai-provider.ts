import { z } from 'zod';
import { ChatResponse, chatJsonRequest, readChatJson, type ChatMessage } from '../../ai/chat.ts';
import { AiError } from '../../ai/openai-client.ts';
import { ProviderError, type TranslateRequest, type TranslationProvider } from '../provider.ts';
import { callProvider, inBatches, scrub, type ProviderEndpoint } from './provider-http.ts';

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, Ollama, vLLM, LM Studio): a
 * batch of segments goes in as a JSON array and comes back as `{"translations": [...]}`.
 */

const Translations = z.object({ translations: z.array(z.string()) });

/** `pt-br` → "Brazilian Portuguese": models follow a language's name better than its code. */
export function languageName(code: string): string {
  const [lang, region] = code.split('-');
  const tag = region ? `${lang}-${region.toUpperCase()}` : lang!;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? code;
  } catch {
    return code;
  }
}

export function systemPrompt(req: Pick<TranslateRequest, 'from' | 'to' | 'instructions' | 'glossary'>, count: number): string {
  const lines = [
    `You translate documentation from ${languageName(req.from)} to ${languageName(req.to)}.`,
    `The user message is a JSON array of ${count} Markdown text segments. Answer with a JSON object {"translations": [...]} holding exactly ${count} strings: the translation of each segment, in the same order.`,
    'Tokens written ⟦…⟧ (for example ⟦1⟧, ⟦b2⟧, ⟦/b2⟧) stand for code, links and formatting: copy every one unchanged, each exactly once. Keep the words between ⟦bN⟧ and ⟦/bN⟧ between them, translated.',
    'Keep Markdown syntax, line breaks and leading or trailing spaces as they are. Do not add notes.',
  ];
  if (req.glossary.length) {
    lines.push('Glossary (always render these terms this way):', ...req.glossary.map((t) => `- ${t.source} → ${t.target}`));
  }
  if (req.instructions.trim()) lines.push("The document owner's instructions:", req.instructions.trim());
  return lines.join('\n');
}

export function openAiProvider(endpoint: ProviderEndpoint & { model: string; apiKey: string | undefined }, batchSize: number): TranslationProvider {
  const host = new URL(endpoint.url).host;
  const headers: Record<string, string> = endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};

  async function translateBatch(req: TranslateRequest, segments: string[], signal: AbortSignal | undefined): Promise<string[]> {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(req, segments.length) },
      { role: 'user', content: JSON.stringify(segments) },
    ];
    const res = await callProvider(endpoint, { method: 'POST', path: '/chat/completions', body: chatJsonRequest(endpoint.model, messages), headers, signal }, ChatResponse);
    let translations: string[];
    try {
      translations = readChatJson(res, Translations, host).translations;
    } catch (err) {
      if (err instanceof AiError) throw new ProviderError('BAD_RESPONSE', scrub(err.message, endpoint.apiKey));
      throw err;
    }
    if (translations.length !== segments.length) {
      throw new ProviderError('BAD_RESPONSE', `${host}/chat/completions answered ${translations.length} translations for ${segments.length} segments`);
    }
    return translations;
  }

  return {
    name: 'openai',
    batchSize,
    translate: (req, signal) => inBatches(req.segments, batchSize, (batch) => translateBatch(req, batch, signal)),
  };
}
