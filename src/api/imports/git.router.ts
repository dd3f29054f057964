import { spaceRules } from '../../domain/content/content.policy.ts';
import { spaceResource } from '../../domain/content/load-content.ts';
import { assertNotDeleted } from '../../domain/content/spaces.ts';
import { GitImport } from '../../domain/entities/git-import.entity.ts';
import { gitImportJob } from '../../jobs/git-import.job.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';

const ImportGitRepository = z.object({
  url: z.url({ protocol: /^https?$/, error: 'expected an http(s) repository URL' }).max(2048),
  ref: z.string().trim().min(1).max(255).regex(/^[\w./-]+$/, 'expected a Git ref such as refs/heads/main'),
  repoCacheID: z.string().max(255).optional(),
  repoTreeURL: z.string().max(2048).optional(),
  repoCommitURL: z.string().max(2048).optional(),
  repoProjectDirectory: z
    .string()
    .max(1024)
    .refine((d) => !d.split('/').includes('..'), 'must stay inside the repository')
    .optional(),
  timestamp: z.string().max(64).optional(),
  force: z.boolean().optional(),
  standalone: z.boolean().optional(),
  gitInfo: z.object({ provider: z.enum(['github', 'gitlab']).optional(), url: z.string().max(2048).optional() }).optional(),
});

export const gitRoutes = [
  defineRoute({
    method: 'post',
    path: '/spaces/{spaceId}/git/import',
    operationId: 'importGitRepository',
    summary: 'Import a Git repository (GitBook Git Sync layout) into the space, in the background',
    tags: ['imports'],
    params: z.object({ spaceId: Id }),
    body: ImportGitRepository,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'triggerGitSync' },
    transactional: true,
    responses: { 204: { description: 'Accepted; a worker imports the repository' } },
    async handle({ em, body, outbox, subject: { space } }) {
      assertNotDeleted(space);
      const imp = em.create(GitImport, {
        space,
        url: body.url,
        ref: body.ref,
        projectDirectory: body.repoProjectDirectory ?? null,
        standalone: body.standalone ?? false,
      });
      await em.flush();
      outbox.add(em, gitImportJob, { importId: imp.id });
      return { status: 204 };
    },
  }),
];
