import { spaceRules } from '../../domain/content/content.policy.ts';
import { loadSpace } from '../../domain/content/load-content.ts';
import { findInTree, loadRevision, loadTree } from '../../domain/content/revision-reader.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { ImportRun } from '../../domain/entities/import-run.entity.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { BadRequestError, notFound } from '../../domain/shared/errors.ts';
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

const ImportRunSchema = z
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

function presentRun(run: ImportRun): z.infer<typeof ImportRunSchema> {
  return {
    object: 'import-run',
    id: run.id,
    status: run.status,
    ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
    ...(run.completedAt ? { completedAt: run.completedAt.toISOString() } : {}),
    ...(run.error ? { error: run.error } : {}),
    pages: run.pages,
  };
}

/** The run, if the caller belongs to its organization and can read its space. */
async function loadRun(em: Parameters<typeof loadSpace>[0], actor: Parameters<typeof loadSpace>[1], organizationId: string, runId: string) {
  await loadOrgAccess(em, actor, organizationId);
  const run = await em.findOne(ImportRun, { id: runId, organization: organizationId });
  if (!run) throw notFound('Import run');
  const { view } = await loadSpace(em, actor, run.space.id).catch(() => {
    throw notFound('Import run');
  });
  return { run, view };
}

export const importRunRoutes = [
  defineRoute({
    method: 'post',
    path: '/org/{organizationId}/imports',
    operationId: 'startImportRun',
    summary: 'Import a website’s pages into a space (in the background)',
    tags,
    params: z.object({ organizationId: Id }),
    body: StartImportRun,
    responses: { 201: { description: 'The run', schema: ImportRunSchema } },
    async handle({ actor, em, params, body, outbox }) {
      await loadOrgAccess(em, actor, params.organizationId);
      const { space, view } = await loadSpace(em, actor, body.target.space).catch(() => {
        throw new BadRequestError(`target.space: no space "${body.target.space}" in this organization`);
      });
      if (space.organization.id !== params.organizationId) throw new BadRequestError(`target.space: no space "${body.target.space}" in this organization`);
      authorize(spaceRules, view, 'edit');
      assertNotDeleted(space);
      if (body.source.type === 'file') throw new BadRequestError('source.type: file imports need uploads, which are not available yet; import a website');
      if (body.target.changeRequest) throw new BadRequestError('target.changeRequest: change requests are not available yet');
      if (body.target.page && !findInTree(await loadTree(em, (await loadRevision(em, space)).pages), body.target.page)) {
        throw new BadRequestError(`target.page: no page "${body.target.page}" in the space`);
      }
      const run = await em.transactional(async (tx) => {
        const created = tx.create(ImportRun, {
          organization: params.organizationId,
          space,
          parentPage: body.target.page ?? null,
          sourceUrl: body.source.type === 'website' ? body.source.url : '',
        });
        await tx.flush();
        outbox.add(tx, websiteImportJob, { runId: created.id });
        return created;
      });
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
    responses: { 200: { description: 'The run', schema: ImportRunSchema } },
    async handle({ actor, em, params }) {
      const { run } = await loadRun(em, actor, params.organizationId, params.importRunId);
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
    responses: { 201: { description: 'The run', schema: ImportRunSchema } },
    async handle({ actor, em, params, deps }) {
      const { run, view } = await loadRun(em, actor, params.organizationId, params.importRunId);
      authorize(spaceRules, view, 'edit');
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
