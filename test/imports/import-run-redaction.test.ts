import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRun } from '../../src/domain/entities/import-run.entity.ts';
import { buildMember, buildOrg, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let reader: Caller;
let orgId: string;
let runId: string;

beforeAll(async () => {
  api = await startTestApi();
  const em = api.em();
  const built = await buildOrg(em);
  orgId = built.org.id;
  reader = await buildMember(em, built.org, 'read');
  const space = await buildSpace(em, built.org, built.owner);
  const run = em.create(ImportRun, {
    organization: built.org,
    space,
    parentPage: null,
    sourceUrl: 'https://deploy:hunter2@docs.example.test/',
    status: 'failed',
    error: 'Could not fetch https://deploy:hunter2@docs.example.test/guide?token=t0ken: 502',
    pages: [{ id: 'p1', sourceURL: 'https://deploy:hunter2@docs.example.test/intro?api_key=k3y' }],
  });
  await em.flush();
  runId = run.id;
});
afterAll(() => api.close());

describe('import runs shown to readers', () => {
  it('carry no credentials in page URLs or the error', async () => {
    const res = await api.request('GET', `/v1/org/${orgId}/imports/${runId}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|t0ken|k3y/);
    expect(res.body.pages).toEqual([{ id: 'p1', sourceURL: 'https://docs.example.test/intro?api_key=REDACTED' }]);
    expect(res.body.error).toBe('Could not fetch https://docs.example.test/guide?token=REDACTED: 502');
  });
});
