import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible API on 127.0.0.1 (random port), speaking its
 * request and response format: POST /v1/embeddings and POST /v1/chat/completions. Every
 * request is recorded; tests replace the answer of a path with `answer(path, fn)`.
 */

export type SeenRequest = { path: string; authorization: string | undefined; contentType: string | undefined; body: any };
/** An answer: status and JSON (or raw text) body, or `hang` to never answer. */
export type FakeAnswer = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'hang';
type Answerer = (body: any, seen: SeenRequest[]) => FakeAnswer;

export type FakeOpenAi = {
  /** Base URL as an operator would configure it (…/v1). */
  url: string;
  seen: SeenRequest[];
  answer(path: '/v1/embeddings' | '/v1/chat/completions', fn: Answerer): void;
  reset(): void;
  close(): Promise<void>;
};

/** A deterministic 8-dimension vector per text (its character codes folded). */
export function fakeVector(text: string): number[] {
  const v = new Array<number>(8).fill(0);
  for (let i = 0; i < text.length; i++) v[i % 8]! += text.charCodeAt(i) / 1000;
  return v;
}

export function embeddingsAnswer(body: { input: string[] }): FakeAnswer {
  return {
    json: {
      object: 'list',
      data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })),
      model: 'fake-embed',
      usage: { prompt_tokens: 1, total_tokens: 1 },
    },
  };
}

/** A chat completion whose message content is `content`, as OpenAI shapes it. */
export function chatAnswer(content: string): FakeAnswer {
  return {
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1,
      model: 'fake-chat',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 1 },
    },
  };
}

/** The default chat model: "no issue" for pure thanks, else a title from the customer's first line. */
function defaultChat(body: { messages: Array<{ role: string; content: string }> }): FakeAnswer {
  const text = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const customer = /^Customer: (.*)$/m.exec(text)?.[1] ?? '';
  if (/^thanks,? bye!?$/i.test(customer.trim())) return chatAnswer(JSON.stringify({ issue: null }));
  return chatAnswer(JSON.stringify({ title: `LLM: ${customer}`, summary: `The customer wants to know: ${customer}` }));
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const seen: SeenRequest[] = [];
  const defaults: Record<string, Answerer> = { '/v1/embeddings': (b) => embeddingsAnswer(b), '/v1/chat/completions': (b) => defaultChat(b) };
  let answerers: Record<string, Answerer> = { ...defaults };
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = null;
    }
    const path = req.url ?? '';
    const request = { path, authorization: req.headers.authorization, contentType: req.headers['content-type'], body };
    seen.push(request);
    const fn = req.method === 'POST' ? answerers[path] : undefined;
    if (!fn) return res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }));
    const answer = fn(body, seen);
    if (answer === 'hang') return void hanging.add(res);
    res.writeHead(answer.status ?? 200, { 'content-type': answer.text === undefined ? 'application/json' : 'text/plain', ...answer.headers });
    res.end(answer.text ?? JSON.stringify(answer.json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    answer: (path, fn) => void (answerers[path] = fn),
    reset: () => {
      seen.length = 0;
      answerers = { ...defaults };
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
