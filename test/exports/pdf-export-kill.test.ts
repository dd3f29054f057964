import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfExport } from '../../src/domain/entities/pdf-export.entity.ts';
import { buildCast, buildContent, buildSpace } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { downloadPdf, pdfText } from '../support/pdf.ts';
import { spawnWorker } from '../support/spawn-worker.ts';
import { waitFor } from '../support/test-jobs.ts';

let api: TestApi;
beforeAll(async () => {
  // The request answers at once; the test follows the render through the export's row.
  api = await startTestApi({ PDF_WAIT_MS: '0' });
});
afterAll(() => api.close());

const PAGES = 150;
const body = (i: number) => `## Part ${i}\n\n${'Prose long enough to take the renderer a while. '.repeat(30)}\n\n\`\`\`\n${'let step = next(step);\n'.repeat(20)}\`\`\`\n`;

describe('a worker killed in the middle of a PDF render', () => {
  it('leaves the export pending; the job runs again on another worker and the PDF is whole', async () => {
    const em = api.em();
    const { org, admin } = await buildCast(em, [] as const);
    const space = await buildSpace(em, org, admin, { title: 'Long read' });
    await buildContent(em, space, Array.from({ length: PAGES }, (_, i) => ({ kind: 'document' as const, title: `Chapter ${i + 1}`, markdown: body(i + 1) })));
    const env = { WORKER_QUEUES: 'exports' };
    const children: ChildProcess[] = [];
    try {
      children.push(await spawnWorker(api.rt.config.queuePrefix, env));
      const res = await api.request('GET', `/v1/spaces/${space.id}/pdf`, { token: admin.token });
      expect(res.status).toBe(200);
      const row = () => api.em().findOneOrFail(PdfExport, { spaceId: space.id });
      await waitFor(async () => (await row()).attempts === 1, 30_000, 'the render to start');
      await new Promise((r) => setTimeout(r, 300));
      children[0]!.kill('SIGKILL');
      await new Promise((r) => children[0]!.once('exit', r));
      // Killed mid-render: nothing was stored, the export still waits for its run.
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1, blobKey: null });

      // A longer lock for the worker that finishes: on a loaded machine the 1.5 s test lock can
      // lapse during a render and cost an attempt of its own.
      children.push(await spawnWorker(api.rt.config.queuePrefix, { ...env, JOB_LOCK_MS: '6000' }));
      await waitFor(async () => (await row()).status !== 'pending', 90_000, 'the retry to finish the render');
      const done = await row();
      expect(done).toMatchObject({ status: 'ready', pages: PAGES });
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      const { pages, text } = await pdfText(await downloadPdf(api, res.body.url));
      expect(text).toContain('Chapter 1');
      expect(text).toContain(`Chapter ${PAGES}`);
      expect(text).toContain(`Part ${PAGES}`);
      expect(pages).toBeGreaterThanOrEqual(PAGES);
      expect(pages).toBeLessThanOrEqual(PAGES * 3);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 150_000);
});
