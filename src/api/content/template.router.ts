import type { EntityManager } from '@mikro-orm/postgresql';
import { commitOnChangeRequest } from '../../domain/change-requests/commit-change-request.ts';
import { targetChangeRequest } from '../../domain/change-requests/target-change-request.ts';
import { commitOnCurrent } from '../../domain/content/commit-revision.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { specsOf } from '../../domain/content/current-pages.ts';
import { spaceResource } from '../../domain/content/load-content.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { TEMPLATE_IDS, TEMPLATES } from '../../domain/content/templates.ts';
import type { Revision } from '../../domain/entities/revision.entity.ts';
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
    summary: 'Add a built-in template’s pages after the pages of the space, or of one of its change requests (`changeRequestId`: id or number)',
    tags: ['content'],
    params: z.object({ spaceId: Id }),
    body: ApplyTemplateBody,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'edit' },
    transactional: true,
    responses: { 204: { description: 'Applied' } },
    async handle({ em, body, actor, outbox, subject: { space } }) {
      assertNotDeleted(space);
      if (Object.keys(body.params?.contentRefs ?? {}).length) {
        throw new BadRequestError(`params.contentRefs: template "${body.id}" takes no content references`);
      }
      const template = TEMPLATES[body.id as keyof typeof TEMPLATES];
      // Appending applies to whatever the content holds, so a concurrent commit is built on, never lost.
      const append = async (tx: EntityManager, head: Revision) => ({ pages: [...(await specsOf(tx, head)), ...template.pages()], files: head.files, variables: head.variables });
      if (body.changeRequestId) {
        // A change request's content is not in the space's search: nothing to re-index.
        const changeRequest = await targetChangeRequest(em, space.id, body.changeRequestId, 'changeRequestId');
        await commitOnChangeRequest(em, space, changeRequest, append, { contributor: actor.user.id });
      } else {
        await commitOnCurrent(em, space, append, contentChangeRecorder(outbox));
      }
      return { status: 204 };
    },
  }),
];
