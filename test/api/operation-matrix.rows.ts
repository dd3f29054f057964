import { TEST_CERTIFICATE, buildChangeRequest, buildChangeRequestContent, buildCollection, buildContent, buildInstallation, buildMember, buildOrg, buildSpace, buildTeam } from '../support/factories.ts';
import { ConversationIssue } from '../../src/domain/entities/conversation-issue.entity.ts';
import { IssueCluster } from '../../src/domain/entities/issue-cluster.entity.ts';
import { extractPendingIssues } from '../../src/domain/conversations/process-conversations.ts';
import { OpenApiSpec } from '../../src/domain/entities/openapi-spec.entity.ts';
import { GuardedHttp, parseAllowlist } from '../../src/domain/net/guarded-http.ts';
import { processSpec } from '../../src/domain/openapi/process-spec.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import type { MatrixContext, MatrixRow, PathParams } from '../support/operation-matrix.ts';
import { changeRequestRows } from './operation-matrix.change-requests.rows.ts';

// Subjects shared by the rows that leave them intact; destroyers build their own.
const shared = new Map<string, Promise<PathParams>>();
const once = (key: string, build: (ctx: MatrixContext) => Promise<PathParams>) => (ctx: MatrixContext) => {
  if (!shared.has(key)) shared.set(key, build(ctx));
  return shared.get(key)!;
};
const org = once('org', async ({ cast }) => ({ organizationId: cast.org.id }));
const newSpace = async ({ api, cast }: MatrixContext) => {
  const em = api.em();
  const space = await buildSpace(em, cast.org, cast.admin);
  await buildContent(em, space, [{ kind: 'document', title: 'Home' }]);
  return { spaceId: space.id };
};
const space = once('space', newSpace);
const newCollection = async ({ api, cast }: MatrixContext) => ({ collectionId: (await buildCollection(api.em(), cast.org, cast.admin)).id });
const collection = once('collection', newCollection);
const newTeam = async ({ api, cast }: MatrixContext) => ({ organizationId: cast.org.id, teamId: (await buildTeam(api.em(), cast.org)).id });
const team = once('team', newTeam);

/** A subject made through the API itself (as the admin), for resources without a factory. */
const viaApi = async ({ api, cast }: MatrixContext, path: string, body: unknown) => {
  const res = await api.request('POST', path, { token: cast.admin.token, body });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string };
};
const newMember = async (ctx: MatrixContext) => ({ organizationId: ctx.cast.org.id, userId: (await buildMember(ctx.api.em(), ctx.cast.org, 'read')).user.id });
const member = once('member', newMember);
const newTeamMember = async (ctx: MatrixContext) => {
  const m = await buildMember(ctx.api.em(), ctx.cast.org, 'read');
  const t = await buildTeam(ctx.api.em(), ctx.cast.org, [{ user: m.user }]);
  return { organizationId: ctx.cast.org.id, teamId: t.id, userId: m.user.id };
};
const newInvite = async (ctx: MatrixContext) => ({
  organizationId: ctx.cast.org.id,
  inviteId: (await viaApi(ctx, `/v1/orgs/${ctx.cast.org.id}/link-invites`, { role: 'read' })).id,
});
const invite = once('invite', newInvite);
const saml = { label: 'IdP', ssoURL: 'https://idp.example.test/sso', entityID: 'https://idp.example.test', certificate: TEST_CERTIFICATE };
const newSaml = async (ctx: MatrixContext) => ({
  organizationId: ctx.cast.org.id,
  samlProviderId: (await viaApi(ctx, `/v1/orgs/${ctx.cast.org.id}/saml`, saml)).id,
});
const samlProvider = once('saml', newSaml);
const page = once('page', async (ctx) => {
  const { spaceId } = await space(ctx);
  const pages = await ctx.api.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: ctx.cast.admin.token });
  const sp = await ctx.api.request('GET', `/v1/spaces/${spaceId}`, { token: ctx.cast.admin.token });
  return { spaceId: spaceId!, pageId: pages.body.pages[0].id as string, revisionId: sp.body.revision as string };
});
const revision = async (ctx: MatrixContext) => {
  const { spaceId, revisionId } = await page(ctx);
  return { spaceId: spaceId!, revisionId: revisionId! };
};
const revisionPage = page;
const pageOnly = async (ctx: MatrixContext) => {
  const { spaceId, pageId } = await page(ctx);
  return { spaceId: spaceId!, pageId: pageId! };
};

/** A second organization the same admin administers: the destination of transfers. */
const destination = once('destination', async ({ api, cast }) => ({ organizationId: (await buildOrg(api.em(), { owner: cast.admin })).org.id }));
const specText = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
const newSpec = async (ctx: MatrixContext) => {
  const slug = `pets-${Math.random().toString(36).slice(2, 10)}`;
  await viaApi(ctx, `/v1/orgs/${ctx.cast.org.id}/openapi`, { slug, source: { text: specText } });
  return { organizationId: ctx.cast.org.id, specSlug: slug };
};
const spec = once('spec', newSpec);
const newImportRun = async (ctx: MatrixContext) => ({
  organizationId: ctx.cast.org.id,
  importRunId: (await viaApi(ctx, `/v1/org/${ctx.cast.org.id}/imports`, { source: { type: 'website', url: 'https://docs.example.test/' }, target: { space: (await space(ctx)).spaceId } })).id,
});
const importRun = once('importRun', newImportRun);
// A text source needs no fetch: the guarded client allows nothing.
const noFetch = new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 1_000, maxBytes: 1024, maxRedirects: 0, userAgent: 'matrix' });
/** A processed specification (one version), as the worker would leave it. */
const version = once('version', async (ctx) => {
  const p = await newSpec(ctx);
  const row = await ctx.api.em().findOneOrFail(OpenApiSpec, { organization: ctx.cast.org.id, slug: p.specSlug });
  await processSpec(ctx.api.em(), noFetch, row.id, () => new Date());
  const res = await ctx.api.request('GET', `/v1/orgs/${p.organizationId}/openapi/${p.specSlug}`, { token: ctx.cast.admin.token });
  if (!res.body.lastVersion) throw new Error(`spec not processed: ${JSON.stringify(res.body)}`);
  return { ...p, versionId: res.body.lastVersion as string };
});
const latest = async (ctx: MatrixContext) => {
  const { organizationId, specSlug } = await version(ctx);
  return { organizationId: organizationId!, specSlug: specSlug! };
};
/** A space whose current revision has one file (its bytes in the runtime's blob store). */
const file = once('file', async (ctx) => {
  const em = ctx.api.em();
  const sp = await buildSpace(em, ctx.cast.org, ctx.cast.admin);
  await buildContent(em, sp, [{ kind: 'document', title: 'Home' }], [{ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('png bytes') }], ctx.api.rt.blobs);
  const files = await ctx.api.request('GET', `/v1/spaces/${sp.id}/content/files`, { token: ctx.cast.admin.token });
  const sr = await ctx.api.request('GET', `/v1/spaces/${sp.id}`, { token: ctx.cast.admin.token });
  return { spaceId: sp.id, fileId: files.body.items[0].id as string, revisionId: sr.body.revision as string };
});
const fileOnly = async (ctx: MatrixContext) => {
  const { spaceId, fileId } = await file(ctx);
  return { spaceId: spaceId!, fileId: fileId! };
};
/** Installation tokens: the cast's organization's, and another organization's. */
const installations = once('installations', async ({ api, cast }) => ({
  own: (await buildInstallation(api.em(), cast.org)).token,
  other: (await buildInstallation(api.em(), (await buildOrg(api.em())).org)).token,
}));
const installationCallers = async (ctx: MatrixContext) => {
  const { own, other } = await installations(ctx);
  // Ingestion is for integrations: a user token, even the organization admin's, is refused.
  return { allowed: own!, outsider: other!, tooLow: { token: ctx.cast.admin.token, status: 403 as const } };
};
const conversation = once('conversation', async (ctx) => {
  const externalId = `matrix-${Math.random().toString(36).slice(2, 10)}`;
  const body = { id: externalId, subject: 'Login', parts: [{ type: 'message', role: 'user', body: 'How do I reset my password?' }] };
  const res = await ctx.api.request('POST', `/v1/orgs/${ctx.cast.org.id}/conversations`, { token: (await installations(ctx)).own, body });
  if (res.status !== 204) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`);
  await extractPendingIssues(ctx.api.em(), ctx.cast.org.id, { now: () => new Date() });
  const list = await ctx.api.request('GET', `/v1/orgs/${ctx.cast.org.id}/conversations`, { token: ctx.cast.admin.token });
  return { organizationId: ctx.cast.org.id, conversationId: list.body.items[0].id as string };
});
const issue = once('issue', async (ctx) => {
  const { conversationId } = await conversation(ctx);
  const found = await ctx.api.em().findOneOrFail(ConversationIssue, { conversation: conversationId! });
  return { organizationId: ctx.cast.org.id, issueId: found.id };
});
/** A cluster as the clustering step would write it, holding the matrix conversation's issue. */
const cluster = once('cluster', async (ctx) => {
  const { issueId } = await issue(ctx);
  const em = ctx.api.em();
  const made = em.create(IssueCluster, { organization: ctx.cast.org, label: 'Password resets', summary: 'Customers cannot reset passwords.', icon: 'key' });
  await em.flush();
  await em.nativeUpdate(ConversationIssue, { id: issueId! }, { cluster: made.id });
  return { organizationId: ctx.cast.org.id, clusterId: made.id };
});
const conversationsRead = (p: PathParams) => `/v1/orgs/${p.organizationId}/conversations`;
const newTranslation = async (ctx: MatrixContext) => ({
  organizationId: ctx.cast.org.id,
  translationId: (await viaApi(ctx, `/v1/orgs/${ctx.cast.org.id}/translations`, { language: 'fr', source: { space: (await space(ctx)).spaceId, language: 'en' } })).id,
});
const translation = once('translation', newTranslation);
const translationRead = (p: PathParams) => `/v1/orgs/${p.organizationId}/translations/${p.translationId}`;
const glossaryRead = (p: PathParams) => `/v1/orgs/${p.organizationId}/translations-glossary`;
const glossaryEntry = once('glossaryEntry', async (ctx) => {
  const res = await ctx.api.request('PUT', `/v1/orgs/${ctx.cast.org.id}/translations-glossary`, { token: ctx.cast.admin.token, body: { operations: [{ type: 'insert', translations: { en: 'Matrix' } }] } });
  if (res.status !== 204) throw new Error(`glossary: ${res.status} ${JSON.stringify(res.body)}`);
  const list = await ctx.api.request('GET', `/v1/orgs/${ctx.cast.org.id}/translations-glossary`, { token: ctx.cast.admin.token });
  return { organizationId: ctx.cast.org.id, glossaryEntryId: list.body.items[0].id as string };
});

/**
 * A change request opened by the `create` member (so the admin may review it, and the
 * `review` member is too low to change it), holding two pages of its own.
 */
const CR_PAGE_A = 'matrixPageA000000000';
const CR_PAGE_B = 'matrixPageB000000000';
const newChangeRequest = async (ctx: MatrixContext) => {
  const em = ctx.api.em();
  const sp = await ctx.api.em().findOneOrFail(Space, { id: (await space(ctx)).spaceId! });
  const cr = await buildChangeRequest(em, sp, ctx.cast.members.create);
  await buildChangeRequestContent(em, sp, cr, ctx.cast.members.create, [
    { id: CR_PAGE_A, kind: 'document', title: 'A', markdown: 'a' },
    { id: CR_PAGE_B, kind: 'document', title: 'B', markdown: 'b' },
  ]);
  return { spaceId: sp.id, changeRequestId: cr.id };
};
const changeRequest = once('changeRequest', newChangeRequest);
const crPageA = async (ctx: MatrixContext) => ({ ...(await newChangeRequest(ctx)), pageId: CR_PAGE_A });
const sharedCrPage = once('crPage', crPageA);
const review = once('review', async (ctx) => {
  const p = await changeRequest(ctx);
  const res = await ctx.api.request('POST', `/v1/spaces/${p.spaceId}/change-requests/${p.changeRequestId}/reviews`, { token: ctx.cast.members.review.token, body: { status: 'approved' } });
  if (res.status !== 201) throw new Error(`review: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...p, reviewId: res.body.id as string };
});
const newRequestedReviewer = async (ctx: MatrixContext) => {
  const p = await newChangeRequest(ctx);
  const userId = ctx.cast.members.review.user.id;
  const res = await ctx.api.request('POST', `/v1/spaces/${p.spaceId}/change-requests/${p.changeRequestId}/requested-reviewers`, { token: ctx.cast.admin.token, body: { users: [userId] } });
  if (res.status !== 200) throw new Error(`requested reviewer: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...p, userId };
};
const crRead = (rest: string) => (p: PathParams) => `/v1/spaces/${p.spaceId}/change-requests/${p.changeRequestId}${rest}`;

const specRead = (p: PathParams) => `/v1/orgs/${p.organizationId}/openapi/${p.specSlug}`;

/** Comments live in a space of their own (its counts stay out of other rows' observations) and in a change request of it. */
const commentSpace = once('commentSpace', newSpace);
const commentScope = once('commentScope', async (ctx) => {
  const { spaceId } = await commentSpace(ctx);
  const cr = await buildChangeRequest(ctx.api.em(), await ctx.api.em().findOneOrFail(Space, { id: spaceId! }), ctx.cast.admin);
  return { spaceId: spaceId!, changeRequestId: cr.id };
});
const spaceScope = async (ctx: MatrixContext) => ({ spaceId: (await commentSpace(ctx)).spaceId! });
const crScope = async (ctx: MatrixContext) => {
  const { spaceId, changeRequestId } = await commentScope(ctx);
  return { spaceId: spaceId!, changeRequestId: changeRequestId! };
};
const commentsPath = (p: PathParams) => `/v1/spaces/${p.spaceId}${p.changeRequestId ? `/change-requests/${p.changeRequestId}` : ''}/comments`;
const commentRead = (p: PathParams) => `${commentsPath(p)}/${p.commentId}`;
const replyRead = (p: PathParams) => `${commentRead(p)}/replies/${p.commentReplyId}`;
/** A thread the admin opened (so the admin is its author), in the scope `scope` gives. */
const newThread = (scope: (ctx: MatrixContext) => Promise<PathParams>) => async (ctx: MatrixContext) => {
  const p = await scope(ctx);
  return { ...p, commentId: (await viaApi(ctx, commentsPath(p), { body: { markdown: 'Matrix thread' } })).id };
};
const newReply = (scope: (ctx: MatrixContext) => Promise<PathParams>) => async (ctx: MatrixContext) => {
  const p = await newThread(scope)(ctx);
  return { ...p, commentReplyId: (await viaApi(ctx, `${commentRead(p)}/replies`, { body: { markdown: 'Matrix reply' } })).id };
};
const spaceThread = once('spaceThread', newThread(spaceScope));
const spaceReply = once('spaceReply', newReply(spaceScope));
const crThread = once('crThread', newThread(crScope));
const crReply = once('crReply', newReply(crScope));
const commentBody = { body: { markdown: 'Matrix comment' } };
const badCommentBody = { body: { markdown: 42 } };
/** A change request (with one page of its own) on a space of its own: merging it moves only that space. */
const newMergeableChangeRequest = async ({ api, cast }: MatrixContext) => {
  const em = api.em();
  const sp = await buildSpace(em, cast.org, cast.admin);
  await buildContent(em, sp, [{ kind: 'document', title: 'Home', markdown: '# Home\n' }]);
  const cr = await buildChangeRequest(em, sp, cast.admin);
  await buildChangeRequestContent(em, sp, cr, cast.admin, [{ kind: 'document', title: 'Home', markdown: '# Home\n' }, { kind: 'document', title: 'Proposed' }]);
  return { spaceId: sp.id, changeRequestId: cr.id };
};
const mergeableChangeRequest = once('mergeableChangeRequest', newMergeableChangeRequest);

const spaceRead = (p: PathParams) => `/v1/spaces/${p.spaceId}`;
const collectionRead = (p: PathParams) => `/v1/collections/${p.collectionId}`;
const orgRead = (p: PathParams) => `/v1/orgs/${p.organizationId}`;
const teamRead = (p: PathParams) => `/v1/orgs/${p.organizationId}/teams/${p.teamId}`;

export const rows: MatrixRow[] = [
  // organizations
  // Any member (guests included) may view the organization: no role is too low; outsiders are case 4.
  { operationId: 'getOrganizationById', subject: org, status: 200, tooLow: null },
  { operationId: 'updateOrganizationById', subject: org, body: { title: 'Renamed org' }, bad: { body: { title: 42 } }, status: 200, observe: orgRead },
  { operationId: 'listMembersInOrganizationById', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listTeamsInOrganizationById', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'createOrganizationTeam', subject: org, body: { title: 'Matrix team' }, bad: { body: {} }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/teams` },
  // A guest lists only what is shared with it (an empty list, not a refusal): no role is too low.
  { operationId: 'listSpacesInOrganizationById', subject: org, status: 200, tooLow: null, bad: { query: 'limit=-1' } },
  { operationId: 'createSpace', subject: org, body: { title: 'Matrix space' }, bad: { body: { title: 42 } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/spaces` },
  // A guest lists only what is shared with it (an empty list, not a refusal): no role is too low.
  { operationId: 'listCollectionsInOrganizationById', subject: org, status: 200, tooLow: null, bad: { query: 'limit=-1' } },
  { operationId: 'createCollection', subject: org, body: { title: 'Matrix collection' }, bad: { body: { title: 42 } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/collections` },
  // teams
  { operationId: 'getTeamInOrganizationById', subject: team, status: 200 },
  { operationId: 'updateTeamInOrganizationById', subject: team, body: { title: 'Renamed team' }, bad: { body: { title: 42 } }, status: 200, observe: teamRead },
  { operationId: 'removeTeamFromOrganizationById', subject: newTeam, destroys: true, status: 205, observe: teamRead },
  { operationId: 'listTeamMembersInOrganizationById', subject: team, status: 200, bad: { query: 'limit=-1' } },
  // collections
  { operationId: 'getCollectionById', subject: collection, status: 200 },
  { operationId: 'updateCollectionById', subject: collection, body: { title: 'Renamed collection' }, bad: { body: { title: 42 } }, status: 200, observe: collectionRead },
  { operationId: 'deleteCollectionById', subject: newCollection, destroys: true, status: 204, ifMissing: 204, observe: collectionRead },
  { operationId: 'listSpacesInCollectionById', subject: collection, status: 200, bad: { query: 'limit=-1' } },
  // spaces
  { operationId: 'getSpaceById', subject: space, status: 200 },
  { operationId: 'updateSpaceById', subject: space, body: { title: 'Renamed space' }, bad: { body: { title: 42 } }, status: 200, observe: spaceRead },
  { operationId: 'deleteSpaceById', subject: newSpace, destroys: true, status: 204, ifMissing: 204, observe: spaceRead },
  { operationId: 'duplicateSpace', subject: space, status: 201, observe: (p) => spaceRead(p) },
  { operationId: 'restoreSpace', subject: async (ctx) => {
      const p = await newSpace(ctx);
      await ctx.api.request('DELETE', `/v1/spaces/${p.spaceId}`, { token: ctx.cast.admin.token });
      return p;
    }, destroys: true, status: 200, observe: spaceRead },
  // A fresh subject each time: a second identical move would change nothing (409).
  { operationId: 'moveSpace', subject: newSpace, body: async (ctx: MatrixContext) => ({ parent: (await collection(ctx)).collectionId }), bad: { body: {} }, status: 200, observe: spaceRead },
  { operationId: 'inviteToSpace', subject: space, body: async (ctx: MatrixContext) => ({ role: 'read', users: [(await member(ctx)).userId] }), bad: { body: { role: 'read' } }, status: 204 },
  { operationId: 'moveCollection', subject: newCollection, body: async (ctx: MatrixContext) => ({ parent: (await collection(ctx)).collectionId }), bad: { body: {} }, status: 200, observe: collectionRead },
  { operationId: 'inviteToCollection', subject: collection, body: async (ctx: MatrixContext) => ({ role: 'read', users: [(await member(ctx)).userId] }), bad: { body: { role: 'read' } }, status: 204 },
  // A fresh subject each time: a transferred subject has left the organization.
  { operationId: 'transferSpace', subject: newSpace, destroys: true, body: async (ctx: MatrixContext) => ({ organization: (await destination(ctx)).organizationId }), bad: { body: {} }, status: 200, observe: spaceRead },
  { operationId: 'transferCollection', subject: newCollection, destroys: true, body: async (ctx: MatrixContext) => ({ organization: (await destination(ctx)).organizationId }), bad: { body: {} }, status: 200, observe: collectionRead },
  { operationId: 'applyTemplateToSpace', subject: space, body: { id: 'knowledge-base' }, bad: { body: { id: 'no-such-template' } }, status: 204, observe: (p) => `/v1/spaces/${p.spaceId}/content/pages` },
  { operationId: 'importGitRepository', subject: space, body: { url: 'https://git.example.test/docs.git', ref: 'refs/heads/main' }, bad: { body: { url: 'https://git.example.test/docs.git', ref: 'no spaces allowed' } }, status: 204 },
  // imports and OpenAPI specifications
  { operationId: 'startImportRun', subject: org, body: async (ctx: MatrixContext) => ({ source: { type: 'website', url: 'https://docs.example.test/' }, target: { space: (await space(ctx)).spaceId } }), bad: { body: { source: { type: 'website', url: 'ftp://x' } } }, status: 201 },
  { operationId: 'getImportRun', subject: importRun, status: 200 },
  { operationId: 'cancelImportRun', subject: newImportRun, destroys: true, status: 201, observe: (p) => `/v1/org/${p.organizationId}/imports/${p.importRunId}` },
  { operationId: 'listOpenAPISpecs', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'createOpenAPISpec', subject: org, body: () => ({ slug: `new-${Math.random().toString(36).slice(2, 10)}`, source: { text: specText } }), bad: { body: { slug: 'Not A Slug', source: { text: specText } } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/openapi` },
  { operationId: 'getOpenAPISpecBySlug', subject: spec, status: 200 },
  { operationId: 'createOrUpdateOpenAPISpecBySlug', subject: spec, body: { source: { text: specText } }, bad: { body: { source: { url: 'ftp://x' } } }, status: 200, observe: specRead },
  { operationId: 'updateOpenAPISpecBySlug', subject: spec, body: { visibility: 'public' }, bad: { body: { visibility: 'everyone' } }, status: 200, observe: specRead },
  { operationId: 'deleteOpenAPISpecBySlug', subject: newSpec, destroys: true, status: 205, observe: specRead },
  { operationId: 'listOpenAPISpecVersions', subject: spec, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getLatestOpenAPISpecVersion', subject: latest, status: 200 },
  { operationId: 'getLatestOpenAPISpecVersionContent', subject: latest, status: 200 },
  { operationId: 'getOpenAPISpecVersionById', subject: version, status: 200 },
  { operationId: 'getOpenAPISpecVersionContentById', subject: version, status: 200 },
  { operationId: 'getFileById', subject: fileOnly, status: 200 },
  { operationId: 'getFileInRevisionById', subject: file, status: 200 },
  { operationId: 'listSpaceFileBacklinks', subject: fileOnly, status: 200, bad: { query: 'limit=-1' } },
  // users and organization-wide reads any member may make: no role is too low (outsiders are case 4)
  { operationId: 'getUserById', subject: async (ctx) => ({ userId: (await member(ctx)).userId! }), status: 200, tooLow: null },
  { operationId: 'updateOrganizationMemberLastSeenAt', subject: org, status: 200, tooLow: null },
  { operationId: 'listSSOProviderLoginsInOrganization', subject: org, status: 200, tooLow: null },
  { operationId: 'setUserAsSSOMemberForOrganization', subject: async (ctx) => { await samlProvider(ctx); return member(ctx); }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/members/${p.userId}` },
  // Any signed-in user may ask to join (the admin already belongs: 204); an outsider whose
  // domain the organization does not admit must learn nothing, not even that it exists.
  { operationId: 'joinOrganization', subject: org, status: 204, tooLow: null },
  // members
  { operationId: 'getMemberInOrganizationById', subject: member, status: 200 },
  { operationId: 'updateMemberInOrganizationById', subject: member, body: { role: 'read' }, bad: { body: { role: 'owner' } }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/members/${p.userId}` },
  { operationId: 'removeMemberFromOrganizationById', subject: newMember, destroys: true, status: 204, observe: (p) => `/v1/orgs/${p.organizationId}/members/${p.userId}` },
  { operationId: 'listTeamsForOrganizationMember', subject: member, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listSpacesForOrganizationMember', subject: member, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'updateOrganizationAgentInstructions', subject: org, body: { instructions: { object: 'document', nodes: [] } }, bad: { body: {} }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/agent-instructions` },
  { operationId: 'getOrganizationAgentInstructions', subject: org, status: 200 },
  // team members
  { operationId: 'updateMembersInOrganizationTeam', subject: team, body: { add: [] }, bad: { body: { add: 'nope' } }, status: 204, observe: (p) => `/v1/orgs/${p.organizationId}/teams/${p.teamId}/members` },
  { operationId: 'addMemberToOrganizationTeamById', subject: async (ctx) => ({ ...(await team(ctx)), userId: (await member(ctx)).userId! }), body: { role: 'member' }, bad: { body: { role: 'boss' } }, status: 204, observe: (p) => `/v1/orgs/${p.organizationId}/teams/${p.teamId}/members` },
  { operationId: 'deleteMemberFromOrganizationTeamById', subject: newTeamMember, destroys: true, status: 205, observe: (p) => `/v1/orgs/${p.organizationId}/teams/${p.teamId}/members` },
  // invites
  { operationId: 'createOrganizationInvite', subject: org, body: { role: 'read' }, bad: { body: { role: 'boss' } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/link-invites` },
  { operationId: 'listOrganizationInviteLinks', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getOrganizationInviteLink', subject: invite, status: 200 },
  { operationId: 'updateOrganizationInviteById', subject: invite, body: { role: 'comment' }, bad: { body: { role: 'boss' } }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/link-invites/${p.inviteId}` },
  { operationId: 'deleteOrganizationInviteById', subject: newInvite, destroys: true, status: 205, observe: (p) => `/v1/orgs/${p.organizationId}/link-invites/${p.inviteId}` },
  { operationId: 'inviteUsersToOrganization', subject: org, body: { emails: ['matrix-invitee@example.test'] }, bad: { body: { emails: ['not an address'] } }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/members` },
  // SAML
  { operationId: 'listSAMLProvidersInOrganizationById', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'createOrganizationSAMLProvider', subject: org, body: saml, bad: { body: { ...saml, ssoURL: 'ftp://x' } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/saml` },
  { operationId: 'getOrganizationSAMLProviderById', subject: samlProvider, status: 200 },
  { operationId: 'updateOrganizationSAMLProvider', subject: samlProvider, body: { label: 'Renamed' }, bad: { body: { label: '' } }, status: 200, observe: (p) => `/v1/orgs/${p.organizationId}/saml/${p.samlProviderId}` },
  { operationId: 'deleteOrganizationSAMLProvider', subject: newSaml, destroys: true, status: 205, observe: (p) => `/v1/orgs/${p.organizationId}/saml/${p.samlProviderId}` },
  // content reads
  { operationId: 'getPageById', subject: pageOnly, status: 200 },
  { operationId: 'getRevisionById', subject: revision, status: 200 },
  { operationId: 'listPagesInRevisionById', subject: revision, status: 200 },
  { operationId: 'listFilesInRevisionById', subject: revision, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getPageInRevisionById', subject: revisionPage, status: 200 },
  { operationId: 'listPageLinksInSpace', subject: pageOnly, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listSpacePageBacklinks', subject: pageOnly, status: 200, bad: { query: 'limit=-1' } },
  // A guest searches only what is shared with it: no role is too low.
  { operationId: 'searchOrganizationContent', subject: org, tooLow: null, query: 'query=hello', status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getCurrentRevision', subject: space, status: 200 },
  { operationId: 'listPages', subject: space, status: 200 },
  { operationId: 'listFiles', subject: space, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listSpaceLinks', subject: space, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'searchSpaceContent', subject: space, query: 'query=hello', status: 200, bad: { query: 'limit=-1' } },
  // change requests: page edits (beyond GitBook), reviews and requested reviewers
  { operationId: 'createPageInChangeRequest', subject: changeRequest, body: { title: 'Matrix page', markdown: '# Matrix' }, bad: { body: { title: 42 } }, status: 201 },
  { operationId: 'updatePageInChangeRequest', subject: sharedCrPage, body: { title: 'Renamed page' }, bad: { body: {} }, status: 200 },
  // A fresh subject each time: a second identical move would change nothing (409).
  { operationId: 'movePageInChangeRequest', subject: crPageA, body: { parent: CR_PAGE_B }, bad: { body: {} }, status: 200 },
  { operationId: 'deletePageInChangeRequest', subject: crPageA, destroys: true, status: 205 },
  { operationId: 'submitChangeRequestReview', subject: changeRequest, body: { status: 'approved' }, bad: { body: { status: 'maybe' } }, status: 201, observe: crRead('/reviews') },
  { operationId: 'getReviewsByChangeRequestId', subject: changeRequest, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getChangeRequestReviewById', subject: review, status: 200 },
  { operationId: 'requestReviewersForChangeRequest', subject: changeRequest, body: async (ctx: MatrixContext) => ({ users: [ctx.cast.members.comment.user.id] }), bad: { body: { users: 'everyone' } }, status: 200, observe: crRead('/requested-reviewers') },
  { operationId: 'getRequestedReviewersByChangeRequestId', subject: changeRequest, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'removeRequestedReviewerFromChangeRequest', subject: newRequestedReviewer, destroys: true, status: 205, observe: crRead('/requested-reviewers') },
  // conversations: integrations ingest, members with an organization role read (guests: 403)
  { operationId: 'ingestConversation', subject: org, callers: installationCallers, body: () => ({ id: `m-${Math.random().toString(36).slice(2, 10)}`, parts: [{ type: 'message', role: 'user', body: 'Where is the API key?' }] }), bad: { body: [{ id: 'fine', parts: [] }, { id: 'bad', parts: [{ type: 'message', role: 'robot', body: 'x' }] }] }, status: 204, observe: conversationsRead },
  { operationId: 'listConversations', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getConversationById', subject: conversation, status: 200 },
  { operationId: 'listConversationsIssues', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'getConversationIssueById', subject: issue, status: 200 },
  { operationId: 'listConversationsIssuesClusters', subject: org, status: 200, bad: { query: 'orderBy=size' } },
  { operationId: 'getConversationsIssuesCluster', subject: cluster, status: 200 },
  // translations and their glossary: members with a role read, role create or above changes
  { operationId: 'listTranslations', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'createTranslation', subject: org, body: async (ctx: MatrixContext) => ({ language: 'de', source: { space: (await space(ctx)).spaceId, language: 'en' } }), bad: { body: { language: 'de' } }, status: 201, observe: (p) => `/v1/orgs/${p.organizationId}/translations` },
  { operationId: 'getTranslation', subject: translation, status: 200 },
  { operationId: 'updateTranslation', subject: translation, body: { instructions: { object: 'document', nodes: [] } }, bad: { body: {} }, status: 200, observe: translationRead },
  { operationId: 'deleteTranslation', subject: newTranslation, destroys: true, status: 205, observe: translationRead },
  { operationId: 'listTranslationRuns', subject: translation, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'listGlossaryEntries', subject: org, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'updateGlossaryEntries', subject: org, body: { operations: [{ type: 'insert', translations: { en: 'Vellum', fr: 'Vélin' } }] }, bad: { body: { operations: [{ type: 'insert', translations: { xx: 'Vellum' } }] } }, status: 204, observe: glossaryRead },
  { operationId: 'getGlossaryEntry', subject: glossaryEntry, status: 200 },
  { operationId: 'runTranslation', subject: translation, status: 204, bad: { query: 'dryRun=maybe' } },
  // comments: role read views, role comment posts, replies, reacts and resolves; authors edit; authors and admins delete
  { operationId: 'listCommentsInSpace', subject: spaceScope, status: 200, bad: { query: 'status=closed' } },
  { operationId: 'postCommentInSpace', subject: spaceScope, body: commentBody, bad: { body: badCommentBody }, status: 200, observe: commentsPath },
  { operationId: 'getCommentInSpace', subject: spaceThread, status: 200, bad: { query: 'format=pdf' } },
  { operationId: 'updateCommentInSpace', subject: spaceThread, body: { body: { markdown: 'Edited' } }, bad: { body: { resolved: 'yes' } }, status: 200, observe: commentRead },
  { operationId: 'deleteCommentInSpace', subject: newThread(spaceScope), destroys: true, status: 205, ifMissing: 204, observe: commentRead },
  { operationId: 'listCommentRepliesInSpace', subject: spaceThread, status: 200, bad: { query: 'limit=-1' } },
  { operationId: 'postCommentReplyInSpace', subject: spaceThread, body: commentBody, bad: { body: {} }, status: 200, observe: (p) => `${commentRead(p)}/replies` },
  { operationId: 'getCommentReplyInSpace', subject: spaceReply, status: 200, bad: { query: 'format=pdf' } },
  { operationId: 'updateCommentReplyInSpace', subject: spaceReply, body: { addedReactions: ['🎉'] }, bad: { body: { addedReactions: [':tada:'] } }, status: 200, observe: replyRead },
  { operationId: 'deleteCommentReplyInSpace', subject: newReply(spaceScope), destroys: true, status: 205, ifMissing: 204, observe: replyRead },
  { operationId: 'listCommentsInChangeRequest', subject: crScope, status: 200, bad: { query: 'order=sideways' } },
  { operationId: 'postCommentInChangeRequest', subject: crScope, body: commentBody, bad: { body: badCommentBody }, status: 200, observe: commentsPath },
  { operationId: 'getCommentInChangeRequest', subject: crThread, status: 200, bad: { query: 'format=pdf' } },
  { operationId: 'updateCommentInChangeRequest', subject: crThread, body: { resolved: true }, bad: { body: { removedReactions: 'all' } }, status: 200, observe: commentRead },
  { operationId: 'deleteCommentInChangeRequest', subject: newThread(crScope), destroys: true, status: 205, ifMissing: 204, observe: commentRead },
  { operationId: 'listCommentRepliesInChangeRequest', subject: crThread, status: 200, bad: { query: 'format=pdf' } },
  { operationId: 'postCommentReplyInChangeRequest', subject: crThread, body: commentBody, bad: { query: 'format=pdf' }, status: 200, observe: (p) => `${commentRead(p)}/replies` },
  { operationId: 'getCommentReplyInChangeRequest', subject: crReply, status: 200, bad: { query: 'format=pdf' } },
  { operationId: 'updateCommentReplyInChangeRequest', subject: crReply, body: { body: { markdown: 'Edited' } }, bad: { body: { body: { html: 'x' } } }, status: 200, observe: replyRead },
  { operationId: 'deleteCommentReplyInChangeRequest', subject: newReply(crScope), destroys: true, status: 205, ifMissing: 204, observe: replyRead },
  // change requests: update and merge take no input (GitBook's clients send no body)
  { operationId: 'updateChangeRequest', subject: mergeableChangeRequest, status: 200 },
  { operationId: 'mergeChangeRequest', subject: newMergeableChangeRequest, destroys: true, status: 200, observe: (p) => `/v1/spaces/${p.spaceId}/content` },
  { operationId: 'getChangeRequestMergeability', subject: mergeableChangeRequest, status: 200 },
  ...changeRequestRows,
  // PDF export: whoever may read the space (role read or above) may export it; a guest without access gets 404.
  { operationId: 'getSpacePDF', subject: space, status: 200, bad: { query: 'only=maybe' } },
  { operationId: 'getChangeRequestPDF', subject: changeRequest, status: 200, bad: { query: 'only=maybe' } },
];
