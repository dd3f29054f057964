import { MAX_PAGE_BYTES } from '../../domain/content/page-tree.ts';
import type { PagePlacement } from '../../domain/content/page-tree-edits.ts';
import { Id } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const ChangeRequestParams = z.object({ spaceId: Id, changeRequestId: Id });
export const ChangeRequestPageParams = ChangeRequestParams.extend({ pageId: Id });

/** A sibling page, in the pointer form moves of spaces and collections use (`{type, space}`). */
const PagePointer = z.object({ type: z.literal('page'), page: Id });
const PagePosition = z
  .object({ before: PagePointer.optional(), after: PagePointer.optional() })
  .openapi({ description: 'Next to which sibling at the destination (one of the two); absent: last' });
const Parent = Id.nullable().openapi({ description: 'The parent page; null: the top level' });

const Title = z.string().trim().min(1).max(255);
const Description = z.string().max(1000).nullable();
const Emoji = z.string().min(1).max(50).nullable();
const Markdown = z
  .string()
  .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_PAGE_BYTES, { message: `at most ${MAX_PAGE_BYTES} bytes of UTF-8` })
  .openapi({ description: `The page's text as Markdown (documents only; at most ${MAX_PAGE_BYTES} bytes)` });
const LinkTargetBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).max(2048) }),
  z.object({ kind: z.literal('page'), page: Id }),
  z.object({ kind: z.literal('file'), file: Id }),
]);

export const CreatePageBody = z.object({
  kind: z.enum(['document', 'group', 'link']).default('document'),
  title: Title,
  description: Description.optional(),
  emoji: Emoji.optional(),
  hidden: z.boolean().optional(),
  markdown: Markdown.optional(),
  linkTarget: LinkTargetBody.optional().openapi({ description: 'Where a link page points (link pages only, required for them)' }),
  parent: Parent.optional(),
  position: PagePosition.optional(),
});

export const UpdatePageBody = z
  .object({
    title: Title.optional(),
    description: Description.optional(),
    emoji: Emoji.optional(),
    hidden: z.boolean().optional(),
    markdown: Markdown.optional(),
    linkTarget: LinkTargetBody.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change' });

export const MovePageBody = z
  .object({ parent: Parent.optional(), position: PagePosition.optional() })
  .refine((b) => b.parent !== undefined || b.position !== undefined, { message: 'give parent or position' });

export function toPlacement(body: { parent?: string | null | undefined; position?: z.infer<typeof PagePosition> | undefined }): PagePlacement {
  return {
    ...(body.parent !== undefined ? { parent: body.parent } : {}),
    ...(body.position ? { position: { before: body.position.before?.page, after: body.position.after?.page } } : {}),
  };
}
