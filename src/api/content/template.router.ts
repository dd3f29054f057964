import { commitOnCurrent } from '../../domain/content/commit-revision.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { specsOf } from '../../domain/content/current-pages.ts';
import { spaceResource } from '../../domain/content/load-content.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { TEMPLATE_IDS, TEMPLATES } from '../../domain/content/templates.ts';
import { BadRequestError } from '../../domain/shared/errors.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { contentChangeRecorder } from '../../jobs/content-changed.ts';

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
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'edit' },
    transactional: true,
    responses: { 204: { description: 'Applied' } },
    async handle({ em, body, outbox, subject: { space } }) {
      assertNotDeleted(space);
      if (body.changeRequestId) throw new BadRequestError('changeRequestId: change requests are not available yet');
      if (Object.keys(body.params?.contentRefs ?? {}).length) {
        throw new BadRequestError(`params.contentRefs: template "${body.id}" takes no content references`);
      }
      const template = TEMPLATES[body.id as keyof typeof TEMPLATES];
      // Appending applies to whatever the space holds, so a concurrent commit is rebuilt on, never lost.
      await commitOnCurrent(
        em,
        space,
        async (tx, current) => ({ pages: [...(await specsOf(tx, current)), ...template.pages()], files: current.files, variables: current.variables }),
        contentChangeRecorder(outbox),
      );
      return { status: 204 };
    },
  }),
];
