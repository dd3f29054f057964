// Attack: a markdown comment `[click](javascript:alert(1))`, read back with `format=document`, came
// out as a link node whose `ref.url` is `javascript:alert(1)` — a ready-made script link for any
// GitBook-compatible client that renders the document form. Issue 11: markdown bodies are never
// rendered unsanitised anywhere; page link targets already refuse anything but http(s).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCast, buildChangeRequest, buildContent, buildSpace, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

let api: TestApi;
let admin: Caller;
let bases: string[];

beforeAll(async () => {
  api = await startTestApi();
  const cast = await buildCast(api.em(), [] as const);
  admin = cast.admin;
  const space = await buildSpace(api.em(), cast.org, admin);
  await buildContent(api.em(), space, [{ kind: 'document', title: 'Home', markdown: 'home' }]);
  const cr = await buildChangeRequest(api.em(), space, admin);
  bases = [`/v1/spaces/${space.id}/comments`, `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`];
});
afterAll(() => api.close());

function urlsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => urlsIn(n, found));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'url' && typeof v === 'string') found.push(v);
      else urlsIn(v, found);
    }
  }
  return found;
}

it.each([['javascript:alert(1)'], ['JavaScript:alert(1)'], ['data:text/html,<script>alert(1)</script>'], ['vbscript:msgbox(1)']])(
  'keeps %s out of the document form of a markdown comment and its replies',
  async (url) => {
    for (const base of bases) {
      const posted = await api.request('POST', base, { token: admin.token, body: { body: { markdown: `[click](${url})` } } });
      expect(posted.status).toBe(200);
      const reply = await api.request('POST', `${base}/${posted.body.id}/replies`, { token: admin.token, body: { body: { markdown: `[again](${url})` } } });
      expect(reply.status).toBe(200);
      const thread = await api.request('GET', `${base}/${posted.body.id}?format=document`, { token: admin.token });
      const replies = await api.request('GET', `${base}/${posted.body.id}/replies?format=document`, { token: admin.token });
      const urls = [...urlsIn(thread.body.body), ...urlsIn(replies.body.items)];
      expect(urls.filter((u) => !/^https?:/i.test(u))).toEqual([]);
      // The markdown form is the author's text, stored as given.
      const md = await api.request('GET', `${base}/${posted.body.id}?format=markdown`, { token: admin.token });
      expect(md.body.body.markdown).toBe(`[click](${url})`);
    }
  },
);

it('keeps javascript: out of a change-request page written in markdown, (merging would carry it into main)', async () => {
  const spaceId = bases[0]!.split('/')[3]!;
  const cr = await api.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: admin.token, body: { status: 'open' } });
  const C = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
  const page = await api.request('POST', `${C}/content/pages`, { token: admin.token, body: { title: 'Links', markdown: '[click](javascript:alert(1))' } });
  expect(page.status).toBe(201);
  const doc = await api.request('GET', `${C}/content/page/${page.body.id}?format=document`, { token: admin.token });
  expect(urlsIn(doc.body.document).filter((u) => !/^https?:/i.test(u))).toEqual([]);
});
