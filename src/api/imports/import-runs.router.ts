import { spaceRules, type ContentView } from '../../domain/content/content.policy.ts';
import { targetChangeRequest } from '../../domain/change-requests/target-change-request.ts';
import { loadSpace, type LoadedSpace } from '../../domain/content/load-content.ts';
import { findInTree, loadRevision, loadTree } from '../../domain/content/revision-reader.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { ImportRun } from '../../domain/entities/import-run.entity.ts';
import { redactText, redactUrl } from '../../domain/net/redact.ts';
import { loadOrgView } from '../../domain/organizations/org-view.ts';
import type { Resource } from '../../domain/policy/authorize.ts';
import { BadRequestError, notFound, NotFoundError } from '../../domain/shared/errors.ts';
import { websiteImportJob } from '../../jobs/website-import.job.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';

const tags = ['imports'];

const StartImportRun = z.object({
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('website'), url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).max(2048) }),
    z.object({ type: z.literal('file'), files: z.array(z.string().max(512)).min(1).max(100) }),
  ]),
  target: z.object({ space: Id, changeRequest: Id.optional(), page: Id.optional() }),
});

const ImportRunWire = z
  .object({
    object: z.literal('import-run'),
    id: z.string(),
    status: z.enum(['pending', 'in-progress', 'completed', 'failed', 'cancelled']),
    startedAt: z.string().optional(),
    completedAt: z.string().optional(),
    error: z.string().optional(),
    pages: z.array(z.object({ id: z.string(), sourceURL: z.string().optional() })).optional(),
  })
  .meta({ id: 'ContentImportRun' });

const RunParams = z.object({ organizationId: Id, importRunId: Id });

function presentRun(run: ImportRun): z.infer<typeof ImportRunWire> {
  return {
    object: 'import-run',
    id: run.id,
    status: run.status,
    ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
    ...(run.completedAt ? { completedAt: run.completedAt.toISOString() } : {}),
    // The source URL (and every page URL crawled from it) may carry credentials.
    ...(run.error ? { error: redactText(run.error) } : {}),
    pages: run.pages.map((page) => ({ ...page, sourceURL: redactUrl(page.sourceURL) })),
  };
}

type LoadedRun = { run: ImportRun; view: ContentView };

/** The run, if the caller belongs to its organization and can read its space. */
const importRunResource: Resource<LoadedRun, ContentView, { params: { organizationId: string; importRunId: string } }> = {
  name: 'space of the import run',
  async load(em, actor, { params }) {
    await loadOrgView(em, actor, params.organizationId);
    const run = await em.findOne(ImportRun, { id: params.importRunId, organization: params.organizationId });
    if (!run) throw notFound('Import run');
    try {
      return { run, view: (await loadSpace(em, actor, run.space.id)).view };
    } catch (err) {
      if (err instanceof NotFoundError) throw notFound('Import run');
      throw err;
    }
  },
  view: (r) => r.view,
};

/** The space a run imports into (`target.space`): one the caller can read in this organization, else a 400. */
const importTargetResource: Resource<LoadedSpace, ContentView, { params: { organizationId: string }; body: { target: { space: string } } }> = {
  name: 'target space',
  async load(em, actor, { params, body }) {
    await loadOrgView(em, actor, params.organizationId);
    const missing = () => new BadRequestError(`target.space: no space "${body.target.space}" in this organization`);
    let loaded: LoadedSpace;
    try {
      loaded = await loadSpace(em, actor, body.target.space);
    } catch (err) {
      if (err instanceof NotFoundError) throw missing();
      throw err;
    }
    if (loaded.space.organization.id !== params.organizationId) throw missing();
    return loaded;
  },
  view: (l) => l.view,
};

export const importRunRoutes = [
  defineRoute({
    method: 'post',
    path: '/org/{organizationId}/imports',
    operationId: 'startImportRun',
    summary: 'Import a website’s pages into a space or one of its change requests (in the background)',
    tags,
    params: z.object({ organizationId: Id }),
    body: StartImportRun,
    load: importTargetResource,
    authorize: { rules: spaceRules, action: 'edit' },
    transactional: true,
    responses: { 201: { description: 'The run', schema: ImportRunWire } },
    async handle({ em, params, body, actor, outbox, subject: { space } }) {
      assertNotDeleted(space);
      if (body.source.type === 'file') throw new BadRequestError('source.type: file imports need uploads, which are not available yet; import a website');
      const changeRequest = body.target.changeRequest ? await targetChangeRequest(em, space.id, body.target.changeRequest, 'target.changeRequest') : null;
      const into = await loadRevision(em, space, changeRequest?.revision ?? space.revision);
      if (body.target.page && !findInTree(await loadTree(em, into.pages), body.target.page)) {
        throw new BadRequestError(`target.page: no page "${body.target.page}" in the ${changeRequest ? 'change request' : 'space'}`);
      }
      const run = em.create(ImportRun, {
        organization: params.organizationId,
        space,
        changeRequest,
        createdBy: actor.user,
        parentPage: body.target.page ?? null,
        sourceUrl: body.source.type === 'website' ? body.source.url : '',
      });
      await em.flush();
      outbox.add(em, websiteImportJob, { runId: run.id });
      return { status: 201, body: presentRun(run) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/org/{organizationId}/imports/{importRunId}',
    operationId: 'getImportRun',
    summary: 'An import run: its status, and the pages it made',
    tags,
    params: RunParams,
    load: importRunResource,
    authorize: { rules: spaceRules, action: 'view' },
    responses: { 200: { description: 'The run', schema: ImportRunWire } },
    async handle({ subject: { run } }) {
      return { status: 200, body: presentRun(run) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/org/{organizationId}/imports/{importRunId}/cancel',
    operationId: 'cancelImportRun',
    summary: 'Stop an import run that has not finished',
    tags,
    params: RunParams,
    load: importRunResource,
    authorize: { rules: spaceRules, action: 'edit' },
    responses: { 201: { description: 'The run', schema: ImportRunWire } },
    async handle({ em, deps, subject: { run } }) {
      if (run.status === 'completed' || run.status === 'failed') throw new BadRequestError(`The run has already ${run.status === 'completed' ? 'completed' : 'failed'}`);
      if (run.status !== 'cancelled') {
        run.status = 'cancelled';
        run.completedAt = deps.clock.now();
        await em.flush();
      }
      return { status: 201, body: presentRun(run) };
    },
  }),
];
