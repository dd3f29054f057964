import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { PdfExport } from '../../src/domain/entities/pdf-export.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import type { RunningWorkers } from '../../src/workers/worker.ts';
import { expectError } from '../support/assertions.ts';
import { buildCast, buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, startTestWorkers, type TestApi } from '../support/harness.ts';
import { downloadPdf, fetchLink, pdfText } from '../support/pdf.ts';
import { makePng } from '../support/png.ts';
import { expectPublishedShape } from '../support/published-schema.ts';
import { testJobServices, testRedisUrl } from '../support/test-env.ts';

let api: TestApi;
let workers: RunningWorkers;
let org: Organization;
let admin: Caller;
let reader: Caller;
let guest: Caller;
let outsider: Caller;
let space: Space;

export const GUIDE = `# Overview heading

Intro paragraph with **bold words** and a [link](https://example.com).

## Steps to follow

- First bullet item
- Second bullet item
  - Nested bullet item
    1. Deeply ordered step

| Setting | Default |
| --- | --- |
| apiTimeout | thirty seconds |

\`\`\`js
const answer = computeAnswer(42);
\`\`\`

{% hint style="warning" %}
Mind the hint text.
{% endhint %}

> A quoted remark.

![Architecture diagram](diagram.png)
`;

/** The space every read here exports: a guide with every block kind, a group with two pages, a link. */
export const PAGES = [
  { kind: 'document' as const, title: 'Getting started', description: 'First steps', markdown: GUIDE },
  {
    kind: 'group' as const,
    title: 'Guides',
    children: [
      { kind: 'document' as const, title: 'Install', markdown: 'Run the installer on page install.' },
      { kind: 'document' as const, title: 'Configure', markdown: 'Edit the configuration file.' },
    ],
  },
  { kind: 'link' as const, title: 'Status page', linkTarget: { kind: 'url' as const, url: 'https://status.example.com' } },
];

beforeAll(async () => {
  api = await startTestApi();
  workers = startTestWorkers(api, ['exports']);
  const em = api.em();
  ({ org, admin, outsider, members: { read: reader, guest } } = await buildCast(em, ['read', 'guest'] as const));
  space = await buildSpace(em, org, admin, { title: 'Handbook' });
  await buildContent(em, space, PAGES, [{ name: 'diagram.png', contentType: 'image/png', bytes: makePng(320, 160) }], testJobServices().blobs);
});
afterAll(async () => {
  await workers.close();
  await api.close();
});

const pdfPath = (s: { id: string } = space, query = '') => `/v1/spaces/${s.id}/pdf${query}`;
const exportIdOf = (url: string) => /\/exports\/(\w+)\/pdf/.exec(url)![1]!;
const pageId = async (title: string) => {
  const rows = await api.em().execute<{ page_id: string }[]>('select page_id from page_nodes where title = ? order by created_at desc limit 1', [title]);
  return rows[0]!.page_id;
};

describe('GET /v1/spaces/{spaceId}/pdf', () => {
  it('answers a signed link to a real PDF of the whole space, for a reader', async () => {
    const res = await api.request('GET', pdfPath(), { token: reader.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/pdf');
    expect(res.body.url).toMatch(/^http:\/\/vellum\.test\/v1\/exports\/\w+\/pdf\?name=Handbook\.pdf&expires=\d+&signature=/);

    const download = await fetchLink(api, res.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = await pdfText(bytes);
    for (const part of [
      'Getting started',
      'First steps',
      'Overview heading',
      'Steps to follow',
      'First bullet item',
      'Nested bullet item',
      'Deeply ordered step',
      'apiTimeout',
      'thirty seconds',
      'const answer = computeAnswer(42);',
      'Mind the hint text.',
      'A quoted remark.',
      'Guides',
      'Install',
      'Run the installer on page install.',
      'Configure',
      'Status page',
      'https://status.example.com',
    ]) {
      expect(text, part).toContain(part);
    }
    // GitBook's tags are read, not printed.
    expect(text).not.toContain('{%');
    // Each page on its own sheet (the group heads its first page): four, within a sane bound.
    expect(pages).toBeGreaterThanOrEqual(4);
    expect(pages).toBeLessThanOrEqual(8);
    // The PNG of the revision is embedded as an image.
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });

  it('exports a page with its descendants, or only that page', async () => {
    const guides = await pageId('Guides');
    const tree = await downloadPdf(api, (await api.request('GET', pdfPath(space, `?page=${guides}`), { token: admin.token })).body.url);
    const withChildren = (await pdfText(tree)).text;
    expect(withChildren).toContain('Run the installer on page install.');
    expect(withChildren).toContain('Edit the configuration file.');
    expect(withChildren).not.toContain('Getting started');

    const install = await pageId('Install');
    const res = await api.request('GET', pdfPath(space, `?page=${install}&only=true`), { token: admin.token });
    expect(res.body.url).toContain('name=Install.pdf');
    const only = await pdfText(await downloadPdf(api, res.body.url));
    expect(only.text).toContain('Run the installer on page install.');
    expect(only.text).not.toContain('Edit the configuration file.');
    expect(only.pages).toBe(1);
  });

  it('renders once per revision and options: a second call answers the cached PDF, a new revision renders anew', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin, { title: 'Cached' });
    await buildContent(em, s, [{ kind: 'document', title: 'Version one', markdown: 'First text.' }]);
    const first = await api.request('GET', pdfPath(s), { token: admin.token });
    const firstPdf = await downloadPdf(api, first.body.url);

    const started = Date.now();
    const second = await api.request('GET', pdfPath(s), { token: admin.token });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(exportIdOf(second.body.url)).toBe(exportIdOf(first.body.url));
    const rows = await api.em().find(PdfExport, { spaceId: s.id });
    expect(rows).toHaveLength(1);
    // One render: the row's run started once, and the blob is the one first downloaded.
    expect(rows[0]).toMatchObject({ status: 'ready', attempts: 1, pages: 1, size: firstPdf.length });
    expect((await downloadPdf(api, second.body.url)).equals(firstPdf)).toBe(true);

    // Other options are another PDF.
    const page = await api.request('GET', pdfPath(s, `?page=${await pageId('Version one')}&only=true`), { token: admin.token });
    expect(exportIdOf(page.body.url)).not.toBe(exportIdOf(first.body.url));

    await buildContent(em, s, [{ kind: 'document', title: 'Version two', markdown: 'Second text.' }]);
    const third = await api.request('GET', pdfPath(s), { token: admin.token });
    expect(exportIdOf(third.body.url)).not.toBe(exportIdOf(first.body.url));
    expect((await pdfText(await downloadPdf(api, third.body.url))).text).toContain('Second text.');
    // The earlier link still serves the earlier revision's PDF.
    expect((await pdfText(await downloadPdf(api, first.body.url))).text).toContain('First text.');
    expect(await api.em().count(PdfExport, { spaceId: s.id })).toBe(3);
  });

  it('renders once for 20 requests at once', async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin, { title: 'Busy' });
    await buildContent(em, s, [{ kind: 'document', title: 'Shared', markdown: 'Everyone asks for this.' }]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.request('GET', pdfPath(s), { token: reader.token })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => exportIdOf(a.body.url))).size).toBe(1);
    const rows = await api.em().find(PdfExport, { spaceId: s.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'ready', attempts: 1 });
    // One job was ever queued for it.
    const queue = new Queue('exports', { connection: { url: testRedisUrl() }, prefix: api.rt.config.queuePrefix });
    try {
      const all = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
      expect(all.filter((j) => j.data.exportId === rows[0]!.id)).toHaveLength(1);
    } finally {
      await queue.close();
    }
    expect((await pdfText(await downloadPdf(api, answers[7]!.body.url))).text).toContain('Everyone asks for this.');
  });

  it('refuses bad options with 400 and records nothing', async () => {
    const before = await api.em().count(PdfExport, { spaceId: space.id });
    expectError(await api.request('GET', pdfPath(space, '?only=maybe'), { token: admin.token }), 400, /only/);
    expectError(await api.request('GET', pdfPath(space, `?page=${'x'.repeat(101)}`), { token: admin.token }), 400, /page/);
    expect(await api.em().count(PdfExport, { spaceId: space.id })).toBe(before);
  });

  it('answers 404 for an unknown space or page, another organization and a member without access', async () => {
    expectError(await api.request('GET', pdfPath({ id: 'NoSuchSpace000000000' }), { token: admin.token }), 404);
    expectError(await api.request('GET', pdfPath(space, '?page=NoSuchPage0000000000'), { token: admin.token }), 404, /Page/);
    const other = await api.request('GET', pdfPath(), { token: outsider.token });
    expectError(other, 404);
    expect(JSON.stringify(other.body)).not.toContain('Handbook');
    expectError(await api.request('GET', pdfPath(), { token: guest.token }), 404);
  });

  it('serves nothing through a link whose signature or expiry was changed', async () => {
    const { url } = (await api.request('GET', pdfPath(), { token: admin.token })).body;
    const res = await fetchLink(api, url.replace(/signature=[^&]+/, 'signature=forged'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: 'Export not found' } });
    const expires = /expires=(\d+)/.exec(url)![1]!;
    expect((await fetchLink(api, url.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`))).status).toBe(404);
    expect((await fetchLink(api, url.replace('name=Handbook.pdf', 'name=evil.html'))).status).toBe(404);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', () => {
  it("renders the change request's current revision, by id or number; main's content is another PDF", async () => {
    const em = api.em();
    const s = await buildSpace(em, org, admin, { title: 'Proposals' });
    await buildContent(em, s, [{ kind: 'document', title: 'Main page', markdown: 'Text on main.' }]);
    const cr = await buildChangeRequest(em, s, admin);
    await buildChangeRequestContent(em, s, cr, admin, [{ kind: 'document', title: 'Proposed page', markdown: 'Text proposed in the change request.' }]);

    const res = await api.request('GET', `/v1/spaces/${s.id}/change-requests/${cr.id}/pdf`, { token: reader.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectPublishedShape(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf');
    expect(res.body.url).toContain(`name=Proposals+%28change+request+%23${cr.number}%29.pdf`);
    const { text } = await pdfText(await downloadPdf(api, res.body.url));
    expect(text).toContain('Text proposed in the change request.');
    expect(text).not.toContain('Text on main.');

    const byNumber = await api.request('GET', `/v1/spaces/${s.id}/change-requests/${cr.number}/pdf`, { token: admin.token });
    expect(exportIdOf(byNumber.body.url)).toBe(exportIdOf(res.body.url));
    const main = await api.request('GET', pdfPath(s), { token: admin.token });
    expect(exportIdOf(main.body.url)).not.toBe(exportIdOf(res.body.url));
    expect((await pdfText(await downloadPdf(api, main.body.url))).text).toContain('Text on main.');
  });

  it('answers 404 for an unknown change request, another organization and a member without access; 400 for bad options', async () => {
    const em = api.em();
    const cr = await buildChangeRequest(em, space, admin);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/NoSuchChangeRequest0/pdf`, { token: admin.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: outsider.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: guest.token }), 404);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf?only=1`, { token: admin.token }), 400, /only/);
    expectError(await api.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf?page=NoSuchPage0000000000`, { token: admin.token }), 404, /Page/);
  });
});
