import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeAnswer } from './fake-openai.ts';

/**
 * A local stand-in for a translation API on 127.0.0.1 (random port): each route
 * (`POST /v2/translate`) answers through a function the test sets; every request is recorded
 * with its headers and parsed JSON body. Unknown routes answer 404.
 */

export type SeenCall = { method: string; path: string; headers: IncomingHttpHeaders; body: any };
type Answerer = (body: any, seen: SeenCall[]) => FakeAnswer;

export type FakeTranslationApi = {
  url: string;
  seen: SeenCall[];
  /** Calls to one route, e.g. `POST /translate`. */
  calls(route: string): SeenCall[];
  answer(route: string, fn: Answerer): void;
  close(): Promise<void>;
};

export async function startFakeTranslationApi(routes: Record<string, Answerer>): Promise<FakeTranslationApi> {
  const seen: SeenCall[] = [];
  const answerers = { ...routes };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const path = req.url ?? '';
    seen.push({ method: req.method ?? '', path, headers: req.headers, body });
    const fn = answerers[`${req.method} ${path}`];
    if (!fn) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const answer = fn(body, seen);
    if (answer === 'hang') return;
    res.writeHead(answer.status ?? 200, { 'content-type': answer.text === undefined ? 'application/json' : 'text/plain', ...answer.headers });
    res.end(answer.text ?? JSON.stringify(answer.json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    calls: (route) => seen.filter((c) => `${c.method} ${c.path}` === route),
    answer: (route, fn) => void (answerers[route] = fn),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Answers `status` (with `headers`) the first `times` calls, then whatever `then` answers. */
export function failing(times: number, status: number, then: Answerer, headers: Record<string, string> = {}): Answerer {
  let left = times;
  return (body, seen) => (left-- > 0 ? { status, json: { error: `failure ${status}` }, headers } : then(body, seen));
}
