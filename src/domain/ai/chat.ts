import { z } from 'zod';
import { AiError, postJson, type AiEndpoint } from './openai-client.ts';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * The body of POST {url}/chat/completions asking for a JSON object: `response_format:
 * json_object` (OpenAI, vLLM, Ollama, llama.cpp honour it), temperature 0.
 */
export function chatJsonRequest(model: string, messages: ChatMessage[]): object {
  return { model, messages, temperature: 0, response_format: { type: 'json_object' } };
}

/** The first choice's JSON object from POST {url}/chat/completions, validated by `schema`. */
export async function chatJson<S extends z.ZodType>(endpoint: AiEndpoint, messages: ChatMessage[], schema: S): Promise<z.output<S>> {
  const res = await postJson(endpoint, '/chat/completions', chatJsonRequest(endpoint.model, messages), ChatResponse);
  return readChatJson(res, schema, new URL(endpoint.url).host);
}

/**
 * The JSON object of a completion's first choice; still accepts one wrapped in a Markdown
 * code fence, as some models answer anyway. Anything else is an AiError BAD_RESPONSE.
 */
export function readChatJson<S extends z.ZodType>(res: z.output<typeof ChatResponse>, schema: S, host: string): z.output<S> {
  const content = res.choices[0]!.message.content ?? '';
  let json: unknown;
  try {
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new AiError('BAD_RESPONSE', `${host}/chat/completions answered a message that is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AiError('BAD_RESPONSE', `${host}/chat/completions answered an unexpected object (${first?.path.join('.') || 'message'}: ${first?.message})`);
  }
  return parsed.data;
}
