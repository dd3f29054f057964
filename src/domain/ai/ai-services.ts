import type { Config } from '../../../config/env.ts';
import type { IssueExtractor } from '../conversations/process-conversations.ts';
import type { AiLog } from './ai-log.ts';
import { llmClusterLabel } from './cluster-labels.ts';
import { embed } from './embeddings.ts';
import { llmIssueExtractor } from './issue-titles.ts';
import { aiEndpoint, type AiEndpoint } from './openai-client.ts';

/**
 * Conversations per extraction batch when titles come from the LLM: the batch's calls run
 * together inside its transaction, so a re-post of one of these conversations waits for
 * one model round trip (at most AI_TIMEOUT_MS per attempt), not for a hundred.
 */
export const LLM_EXTRACT_BATCH = 8;

/**
 * The optional OpenAI-compatible helpers as the workers use them. Every method has an
 * offline answer: `null` (or the heuristics) when its endpoint is not configured or failed,
 * so callers never need to know whether one is configured.
 */
export type AiServices = {
  /** One vector per text, or null: use the sparse (offline) representation. */
  embedTexts(texts: string[]): Promise<Float32Array[] | null>;
  /** The configured embeddings model (EMBEDDINGS_MODEL): vectors of different models never mix. Null: none configured. */
  embeddingsModel: string | null;
  /** A label for a cluster, or null: keep the one from its distinctive terms. */
  labelCluster(representativeTitles: string[], terms: string[]): Promise<string | null>;
  /** Extraction by the LLM, or null: extract-issues.ts heuristics. */
  issueExtractor: IssueExtractor | null;
  /** Batch size that goes with `issueExtractor`. */
  extractBatch: number | undefined;
};

export function aiServicesFrom(config: Pick<Config, 'ai' | 'outbound'>, log: AiLog, overrides: { retryDelayMs?: number } = {}): AiServices {
  const limits = { timeoutMs: config.ai.timeoutMs, maxBytes: config.outbound.maxBytes, ...overrides };
  const embeddings = config.ai.embeddings && aiEndpoint(config.ai.embeddings, limits);
  const chat = config.ai.chat && aiEndpoint(config.ai.chat, limits);
  return {
    embedTexts: embeddings ? (texts) => embedOrNull(embeddings, log, texts) : async () => null,
    embeddingsModel: embeddings ? embeddings.model : null,
    labelCluster: chat ? (titles, terms) => llmClusterLabel(chat, log, titles, terms) : async () => null,
    issueExtractor: chat ? llmIssueExtractor(chat, log) : null,
    extractBatch: chat ? LLM_EXTRACT_BATCH : undefined,
  };
}

async function embedOrNull(endpoint: AiEndpoint, log: AiLog, texts: string[]): Promise<Float32Array[] | null> {
  if (texts.length === 0) return [];
  try {
    return await embed(endpoint, texts);
  } catch (err) {
    log.warn({ err: (err as Error).message, code: (err as { code?: string }).code, texts: texts.length }, 'embeddings failed; sparse vectors used');
    return null;
  }
}
