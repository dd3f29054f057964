import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { PdfExport } from '../../src/domain/entities/pdf-export.entity.ts';
import { EXPORT_LIMITS } from '../../src/domain/exports/export-limits.ts';
import { runExport } from '../../src/domain/exports/run-export.ts';
import { systemClock } from '../../src/domain/shared/clock.ts';
import { pdfExportJob } from '../../src/jobs/pdf-export.job.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { downloadPdf, fetchLink, pdfText } from '../support/pdf.ts';
import { testJobServices } from '../support/test-env.ts';

/*
 * The states a client meets when the render is not (or not yet) done: no worker runs the
 * `exports` queue of this API, and requests wait for nothing (PDF_WAIT_MS=0), so each test
 * runs the job itself at the moment it chooses.
 */
let api: TestApi;
let org: Organization;
let admin: Caller;

beforeAll(async () => {
  api = await startTestApi({ PDF_WAIT_MS: '0' });
  ({ org, admin } = await buildCast(api.em(), [] as const));
});
afterAll(() => api.close());

const blobs = testJobServices().blobs;
const log = pino({ level: 'silent' });

async function spaceWith(title: string, markdown: string) {
  const em = api.em();
  const space = await buildSpace(em, org, admin, { title });
  await buildContent(em, space, [{ kind: 'document', title, markdown }]);
  return space;
}

const rowOf = (spaceId: string) => api.em().findOneOrFail(PdfExport, { spaceId });
const runOf = (row: PdfExport) => ({ exportId: row.id, runId: row.runId });

describe('a PDF that is not ready yet', () => {
  it('answers the link at once; the link answers 503 with Retry-After until the job has rendered it', async () => {
    const space = await spaceWith('Later', 'Rendered after the answer.');
    const res = await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
    expect(res.status).toBe(200);
    const early = await fetchLink(api, res.body.url);
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('2');
    expect(await early.json()).toEqual({ error: { code: 503, message: 'The PDF is still being rendered; retry in 2 s' } });

    const row = await rowOf(space.id);
    expect(row.status).toBe('pending');
    expect(await runExport(api.em(), blobs, runOf(row))).toMatchObject({ outcome: 'ready', pages: 1 });
    // The job running again (a retry, a duplicate delivery) does nothing.
    expect(await runExport(api.em(), blobs, runOf(row))).toEqual({ outcome: 'skipped' });
    expect((await pdfText(await downloadPdf(api, res.body.url))).text).toContain('Rendered after the answer.');
    expect(await rowOf(space.id)).toMatchObject({ status: 'ready', attempts: 1 });
  });
});

describe('a render that failed for good', () => {
  it('answers its error to the link and to the next request, which starts a new run that renders it', async () => {
    const space = await spaceWith('Flaky', 'Rendered on the second run.');
    const { url } = (await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token })).body;
    const failed = await rowOf(space.id);
    // Every attempt failed: the worker runs the final-failure hook.
    await pdfExportJob.onFinalFailure!(runOf(failed), new Error('worker lost'), { em: api.em(), log, clock: systemClock });
    expect(await rowOf(space.id)).toMatchObject({ status: 'failed', errorCode: 'RENDER_FAILED' });
    // The hook running again changes nothing.
    await pdfExportJob.onFinalFailure!(runOf(failed), new Error('again'), { em: api.em(), log, clock: systemClock });

    const link = await fetchLink(api, url);
    expect(link.status).toBe(500);
    expect(((await link.json()) as { error: { message: string } }).error.message).toMatch(/could not be rendered; asking again starts a new attempt/);
    // The cause stays in the log; the answer reveals nothing of it.
    const asked = await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
    expect(asked.status).toBe(200);
    const retried = await rowOf(space.id);
    expect(retried).toMatchObject({ id: failed.id, status: 'pending', errorCode: null });
    expect(retried.runId).not.toBe(failed.runId);
    // The old run's job, if it ever runs again, leaves the new run alone.
    expect(await runExport(api.em(), blobs, runOf(failed))).toEqual({ outcome: 'skipped' });
    expect(await runExport(api.em(), blobs, runOf(retried))).toMatchObject({ outcome: 'ready' });
    expect((await pdfText(await downloadPdf(api, url))).text).toContain('Rendered on the second run.');
  });

  it('answers 400 for content past the export bounds, and does not render it again', async () => {
    const space = await spaceWith('Huge', 'x'.repeat(2000));
    await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
    const row = await rowOf(space.id);
    const outcome = await runExport(api.em(), blobs, runOf(row), { limits: { ...EXPORT_LIMITS, maxTextChars: 1000 } });
    expect(outcome).toEqual({ outcome: 'failed', code: 'TOO_LARGE' });
    const res = await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
    expectError(res, 400, /more than 1000 characters of text: export fewer pages/);
    expect(await rowOf(space.id)).toMatchObject({ status: 'failed', runId: row.runId });
  });

  it('answers 400 at once for a space with more pages than one PDF may hold, recording nothing', async () => {
    const em = api.em();
    const space = await buildSpace(em, org, admin, { title: 'Wide' });
    const pages = Array.from({ length: EXPORT_LIMITS.maxPages + 1 }, (_, i) => ({ kind: 'document' as const, title: `P${i}` }));
    await buildContent(em, space, pages);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token }), 400, /2001 pages, more than the 2000/);
    expect(await api.em().count(PdfExport, { spaceId: space.id })).toBe(0);
  });

  it('marks an export whose stored PDF went missing, so that asking again renders it anew', async () => {
    const space = await spaceWith('Wiped', 'Stored once.');
    const { url } = (await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token })).body;
    const row = await rowOf(space.id);
    await runExport(api.em(), blobs, runOf(row));
    await blobs.delete((await rowOf(space.id)).blobKey!);
    expect((await fetchLink(api, url)).status).toBe(404);
    expect(await rowOf(space.id)).toMatchObject({ status: 'failed', errorCode: 'BLOB_MISSING' });
    await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
    expect(await runExport(api.em(), blobs, runOf(await rowOf(space.id)))).toMatchObject({ outcome: 'ready' });
    expect((await fetchLink(api, url)).status).toBe(200);
  });
});
