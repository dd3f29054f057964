import { pseudoTranslate } from './pseudo-translate.ts';

/** A glossary entry: how a term of the source language must be rendered in the target one. */
export type GlossaryTerm = { source: string; target: string };

/**
 * One provider call: segments (markdown-segments.ts) in the source language, answered in
 * the same order in the target language. Placeholder tokens (`⟦1⟧`, `⟦b1⟧…⟦/b1⟧`) must come
 * back unchanged; the caller validates every segment and keeps the source text of any that
 * does not (so a provider need not be trusted with structure).
 */
export type TranslateRequest = {
  /** TranslationLanguage codes (compat-facts), e.g. `en`, `pt-br`. */
  from: string;
  to: string;
  /** The translation's instructions as plain text ('' when none). */
  instructions: string;
  glossary: GlossaryTerm[];
  segments: string[];
};

/**
 * Why a provider call failed, for the run record: the run keeps its previous result and
 * reports the code. RATE_LIMITED is what remained after backing off (Retry-After honoured).
 */
export type ProviderErrorCode = 'RATE_LIMITED' | 'QUOTA_EXCEEDED' | 'AUTH_FAILED' | 'UNAVAILABLE' | 'TIMEOUT' | 'BAD_RESPONSE' | 'UNSUPPORTED_LANGUAGE';

export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  constructor(code: ProviderErrorCode, message: string) {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
  }
}

export interface TranslationProvider {
  /** `pseudo`, `openai`, `libretranslate`, `deepl`: recorded with each run. */
  readonly name: string;
  /** Segments per call the provider handles well (the worker batches by it). */
  readonly batchSize: number;
  /** One translation per segment, same order; throws ProviderError, never answers partially. */
  translate(request: TranslateRequest, signal?: AbortSignal): Promise<string[]>;
}

/** The offline default: deterministic pseudo-localization, no network. */
export const pseudoProvider: TranslationProvider = {
  name: 'pseudo',
  batchSize: 500,
  async translate({ segments }) {
    return segments.map(pseudoTranslate);
  },
};
