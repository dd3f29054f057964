import { buildChangeRequest, buildChangeRequestContent, buildContent, buildSpace } from '../support/factories.ts';
import type { MatrixContext, MatrixRow, PathParams } from '../support/operation-matrix.ts';

// Subjects shared by the rows that leave them intact.
const shared = new Map<string, Promise<PathParams>>();
const once = (key: string, build: (ctx: MatrixContext) => Promise<PathParams>) => (ctx: MatrixContext) => {
  if (!shared.has(key)) shared.set(key, build(ctx));
  return shared.get(key)!;
};

/** A space with a page and a file, and a change request (by the admin) whose content adds a page linking to both. */
const changeRequest = once('changeRequest', async ({ api, cast }) => {
  const em = api.em();
  const space = await buildSpace(em, cast.org, cast.admin);
  const home = { id: 'matrixCrHome0000000a', kind: 'document' as const, title: 'Home', gitPath: 'README.md' };
  await buildContent(em, space, [home], [{ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('png'), gitPath: '.gitbook/assets/logo.png' }], api.rt.blobs);
  const cr = await buildChangeRequest(api.em(), space, cast.admin);
  const linking = { id: 'matrixCrNew00000000a', kind: 'document' as const, title: 'New', gitPath: 'new.md', markdown: '[home](README.md) ![logo](.gitbook/assets/logo.png)' };
  await buildChangeRequestContent(api.em(), space, cr, cast.admin, [home, linking]);
  const files = await api.request('GET', `/v1/spaces/${space.id}/content/files`, { token: cast.admin.token });
  return { spaceId: space.id, changeRequestId: cr.id, pageId: home.id, newPageId: linking.id, fileId: files.body.items[0].id as string };
});
const pick = (...names: string[]) => async (ctx: MatrixContext) => {
  const all = await changeRequest(ctx);
  return Object.fromEntries(names.map((n) => [n === 'newPageId' ? 'pageId' : n, all[n]!]));
};
const crOnly = pick('spaceId', 'changeRequestId');
const crPage = pick('spaceId', 'changeRequestId', 'pageId');
const crNewPage = pick('spaceId', 'changeRequestId', 'newPageId');
const crFile = pick('spaceId', 'changeRequestId', 'fileId');
const spaceOnly = pick('spaceId');
const org = async (ctx: MatrixContext) => ({ organizationId: ctx.cast.org.id });

const crRead = (p: PathParams) => `/v1/spaces/${p.spaceId}/change-requests/${p.changeRequestId}`;
const spaceRead = (p: PathParams) => `/v1/spaces/${p.spaceId}`;

export const changeRequestRows: MatrixRow[] = [
  { operationId: 'listChangeRequestsForSpace', subject: spaceOnly, status: 200, bad: { query: 'status=closed' } },
  // The space's change-request counts show whether a refused request created one.
  { operationId: 'createChangeRequest', subject: spaceOnly, body: { subject: 'Matrix change' }, bad: { body: { subject: 'x'.repeat(101) } }, status: 201, observe: spaceRead },
  { operationId: 'getChangeRequestById', subject: crOnly, status: 200 },
  { operationId: 'updateChangeRequestById', subject: crOnly, body: { subject: 'Renamed change' }, bad: { body: { status: 'merged' } }, status: 200, observe: crRead },
  // A guest lists only the change requests of spaces shared with it (an empty list, not a refusal): no role is too low.
  { operationId: 'listChangeRequestsForOrganization', subject: org, status: 200, tooLow: null, bad: { query: 'status=everything' } },
  // change-request content
  { operationId: 'getRevisionOfChangeRequestById', subject: crOnly, status: 200, bad: { query: 'metadata=maybe' } },
  { operationId: 'listPagesInChangeRequest', subject: crOnly, status: 200, bad: { query: 'computed=maybe' } },
  { operationId: 'listFilesInChangeRequestById', subject: crOnly, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getFileInChangeRequestById', subject: crFile, status: 200 },
  { operationId: 'getPageInChangeRequestById', subject: crPage, status: 200, bad: { query: 'format=html' } },
  { operationId: 'listPageLinksInChangeRequest', subject: crNewPage, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listChangeRequestPageBacklinks', subject: crPage, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listChangeRequestFileBacklinks', subject: crFile, status: 200, bad: { query: 'limit=-1' } },
];
