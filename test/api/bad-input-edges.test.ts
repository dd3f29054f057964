import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.ts';
import { buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

/**
 * Input the fuzzer found answering 500: each must be a 4xx in the error shape, or for a
 * body that never arrives, a clean timeout.
 */
let api: TestApi;
let admin: Caller;
let orgId: string;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const built = await buildOrg(em);
  admin = built.owner;
  orgId = built.org.id;
  spaceId = (await buildSpace(em, built.org, admin)).id;
});
afterAll(() => api.close());

/** `depth` levels of `{ "nodes": [ ... ] }` around `leaf`, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { nodes: [value] } : [value];
  return value;
}

function expectClientError(res: { status: number; body: any }) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toEqual({ error: { code: res.status, message: expect.any(String) } });
}

const instructions = (nodes: unknown[]) => ({ instructions: { object: 'document', data: {}, nodes } });

describe('bodies PostgreSQL could not store', () => {
  it('refuses a lone surrogate nested deep in a document', async () => {
    const res = await api.request('PUT', `/v1/orgs/${orgId}/agent-instructions`, {
      token: admin.token,
      // JSON.stringify writes the lone surrogate as the escape `\ud800`, which the server parses back.
      body: instructions([nested(80, { text: 'x\uD800y' })]),
    });
    expectClientError(res);
    expect(res.body.error.message).toMatch(/surrogate/);
  });

  it('refuses NUL nested deeper than 64 levels in a document', async () => {
    const res = await api.request('PUT', `/v1/orgs/${orgId}/agent-instructions`, {
      token: admin.token,
      body: instructions([nested(80, { text: 'a\u0000b' })]),
    });
    expectClientError(res);
    expect(res.body.error.message).toMatch(/NUL/);
  });

  it('refuses a lone surrogate in a space’s merge rules', async () => {
    const res = await api.request('PATCH', `/v1/spaces/${spaceId}`, {
      token: admin.token,
      rawBody: '{"mergeRules":{"type":"rules","rules":[{"rule":"custom","expression":"a\\udc00b"}]}}',
    });
    expectClientError(res);
  });

  it('refuses nesting thousands of levels deep', async () => {
    // Written as text: building it through JSON.stringify would overflow this test's own stack.
    const deep = '[{"nodes":'.repeat(1500) + '[]' + '}]'.repeat(1500);
    for (const rawBody of [`{"instructions":{"object":"document","data":{},"nodes":${deep}}}`, `{"title":${deep}}`]) {
      const res = await api.request('PUT', `/v1/orgs/${orgId}/agent-instructions`, { token: admin.token, rawBody });
      expectClientError(res);
    }
  });
});

describe('bodies and methods the HTTP layer cannot take', () => {
  it('answers 400 to a gzip body that does not inflate', async () => {
    const res = await api.request('PUT', `/v1/orgs/${orgId}/agent-instructions`, {
      token: admin.token,
      rawBody: 'this is not gzip',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(400);
    expectClientError(res);
  });

  it('answers unknown methods with 405 in the error shape', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      for (const path of [`/v1/spaces/${spaceId}`, '/v1/no-such-route', '/healthz']) {
        const res = await rawRequest(method, path);
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        expect(JSON.parse(res.body)).toEqual({ error: { code: res.status, message: expect.any(String) } });
      }
      expect((await rawRequest(method, `/v1/spaces/${spaceId}`)).status).toBe(405);
    }
  });

  it('times out a request whose body is shorter than its Content-Length', async () => {
    const server = await startServer(api.rt, { port: 0, host: '127.0.0.1', requestTimeoutMs: 1000 });
    try {
      const socket = connect(server.port, '127.0.0.1');
      const answer = new Promise<string>((resolve) => {
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', () => undefined);
      });
      socket.write(`PUT /v1/orgs/${orgId}/agent-instructions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"instr`);
      // The server answers 408 (or closes) on its own; the socket closing ends the wait.
      const text = await answer;
      expect(text === '' || /^HTTP\/1\.1 408 /.test(text), text).toBe(true);
    } finally {
      await server.close();
    }
  });
});

/** node:http, since fetch refuses methods such as TRACE. */
function rawRequest(method: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, api.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { authorization: `Bearer ${admin.token}` } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
