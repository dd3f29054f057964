import { z } from 'zod';
import { AiError, postJson, type AiEndpoint } from './openai-client.ts';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * The first choice's JSON object from POST {url}/chat/completions, validated by `schema`.
 * Asks for `response_format: json_object` (OpenAI, vLLM, Ollama, llama.cpp honour it) and
 * still accepts an object wrapped in a Markdown code fence, as some models answer anyway.
 */
export async function chatJson<S extends z.ZodType>(endpoint: AiEndpoint, messages: ChatMessage[], schema: S): Promise<z.output<S>> {
  const res = await postJson(
    endpoint,
    '/chat/completions',
    { model: endpoint.model, messages, temperature: 0, response_format: { type: 'json_object' } },
    ChatResponse,
  );
  const content = res.choices[0]!.message.content ?? '';
  const host = new URL(endpoint.url).host;
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
