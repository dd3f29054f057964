import { commitRevision } from '../../domain/content/commit-revision.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { specsOf } from '../../domain/content/current-pages.ts';
import { loadSpace } from '../../domain/content/load-content.ts';
import { loadRevision } from '../../domain/content/revision-reader.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { TEMPLATE_IDS, TEMPLATES } from '../../domain/content/templates.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { BadRequestError } from '../../domain/shared/errors.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { recordContentChange } from '../../jobs/content-changed.ts';

const ApplyTemplateBody = z.object({
  id: z.enum(TEMPLATE_IDS as [string, ...string[]]),
  params: z.object({ contentRefs: z.record(z.string(), z.object({ kind: z.literal('file'), file: Id })).optional() }).optional(),
  changeRequestId: Id.optional(),
});

export const templateRoutes = [
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/content/template',
    operationId: 'applyTemplateToSpace',
    summary: 'Add a built-in template’s pages after the space’s pages',
    tags: ['content'],
    params: z.object({ spaceId: Id }),
    body: ApplyTemplateBody,
    responses: { 204: { description: 'Applied' } },
    async handle({ actor, em, params, body, outbox }) {
      const { space, view } = await loadSpace(em, actor, params.spaceId);
      authorize(spaceRules, view, 'edit');
      assertNotDeleted(space);
      if (body.changeRequestId) throw new BadRequestError('changeRequestId: change requests are not available yet');
      if (Object.keys(body.params?.contentRefs ?? {}).length) {
        throw new BadRequestError(`params.contentRefs: template "${body.id}" takes no content references`);
      }
      const template = TEMPLATES[body.id as keyof typeof TEMPLATES];
      await em.transactional(async (tx) => {
        const revision = await loadRevision(tx, space);
        const current = await specsOf(tx, revision);
        await commitRevision(tx, space, { pages: [...current, ...template.pages()], files: revision.files, variables: revision.variables });
        recordContentChange(tx, outbox, space);
      });
      return { status: 204 };
    },
  }),
];
