import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContent, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

/**
 * Walks every operation of the OpenAPI document and sends it malformed input as an
 * organization admin, so authorization never hides a crash: no combination may answer 5xx.
 */
let api: TestApi;
let admin: Caller;
let ids: Record<string, string>;

const GARBAGE_IDS = ['x'.repeat(300), '%27%22%3C', 'ü%C3%A9', '..%2F..%2Fetc', '0', '-1', '%00'];
const GARBAGE_BODIES: unknown[] = [
  [],
  'null',
  42,
  { title: { nested: true }, role: ['admin'], emails: 'a@b.c', source: 7, position: 'after', parent: 12, limit: -5 },
  { instructions: { object: 'document', nodes: 'no' }, slug: '', url: 'javascript:alert(1)', ref: '', id: null },
  { emoji: '🦄'.repeat(200), title: '\u202e'.repeat(60), description: 'x'.repeat(5000) },
];
const GARBAGE_QUERIES = ['limit=abc', 'limit=1e400', 'page=%FF%FE', 'order=sideways&sort=name', 'query=' + '%22'.repeat(50), 'nested=2&metadata=x&format=pdf'];

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const built = await buildOrg(em);
  admin = built.owner;
  const space = await buildSpace(em, built.org, admin);
  await buildContent(em, space, [{ id: 'fuzzPage00000000000a', kind: 'document', title: 'Page', markdown: '# Page' }]);
  ids = { organizationId: built.org.id, spaceId: space.id, userId: admin.user.id, pageId: 'fuzzPage00000000000a' };
});
afterAll(() => api.close());

describe('malformed input never makes the service fail', () => {
  it('answers every operation with something other than 5xx', async () => {
    const doc = (await api.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const failures: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const paths = [
          template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? 'unknown'),
          ...GARBAGE_IDS.map((g) => template.replace(/\{(\w+)\}/g, () => g)),
        ];
        for (const path of paths) {
          const attempts = method === 'get' || method === 'delete' ? GARBAGE_QUERIES.map((q) => ({ query: q, body: undefined })) : GARBAGE_BODIES.map((b) => ({ query: '', body: b }));
          for (const attempt of attempts) {
            const url = `/v1${path}${attempt.query ? `?${attempt.query}` : ''}`;
            const res = await api.request(method.toUpperCase(), url, {
              token: admin.token,
              ...(attempt.body === undefined ? {} : typeof attempt.body === 'string' ? { rawBody: attempt.body } : { body: attempt.body }),
            });
            calls++;
            if (res.status >= 500) failures.push(`${method.toUpperCase()} ${url} ${JSON.stringify(attempt.body)} -> ${res.status}`);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(1000);
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  }, 180_000);
});
