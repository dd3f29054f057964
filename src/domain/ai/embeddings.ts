import { z } from 'zod';
import { AiError, postJson, type AiEndpoint } from './openai-client.ts';

/** Inputs per request: OpenAI accepts up to 2048, smaller batches keep each answer (and a retry) small. */
export const EMBED_BATCH = 100;
/** Characters per input: issue texts are far shorter; the cap keeps any input under model token limits. */
const INPUT_MAX = 8000;

const EmbeddingsResponse = z.object({
  data: z.array(z.object({ embedding: z.array(z.number().finite()).min(1), index: z.number().int().min(0) })),
});

/**
 * One vector per text, in the texts' order, through POST {url}/embeddings, 100 texts per
 * request, one request at a time (providers rate-limit by tokens per minute). The answer
 * must hold every index of its batch once, all vectors of one dimension; anything else is
 * an AiError, never a partial result.
 */
export async function embed(endpoint: AiEndpoint, texts: string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += EMBED_BATCH) {
    // Empty inputs are refused by OpenAI: a space embeds as "nothing said".
    const input = texts.slice(start, start + EMBED_BATCH).map((t) => t.slice(0, INPUT_MAX).trim() || ' ');
    const { data } = await postJson(endpoint, '/embeddings', { model: endpoint.model, input }, EmbeddingsResponse);
    const byIndex = new Array<Float32Array | undefined>(input.length);
    for (const item of data) {
      if (item.index >= input.length || byIndex[item.index]) throw bad(endpoint, `index ${item.index} out of range or repeated`);
      byIndex[item.index] = Float32Array.from(item.embedding);
    }
    if (byIndex.some((v) => v === undefined) || data.length !== input.length) throw bad(endpoint, `${data.length} embeddings for ${input.length} inputs`);
    vectors.push(...(byIndex as Float32Array[]));
  }
  const dimension = vectors[0]?.length;
  if (vectors.some((v) => v.length !== dimension)) throw bad(endpoint, 'embeddings of different dimensions');
  return vectors;
}

function bad(endpoint: AiEndpoint, what: string): AiError {
  return new AiError('BAD_RESPONSE', `${new URL(endpoint.url).host}/embeddings answered ${what}`);
}
