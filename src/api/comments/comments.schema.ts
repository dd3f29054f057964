import { canonicalEmoji } from '../../domain/comments/emoji.ts';
import { Id, Order, PagingQuery, RichTextDocument } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { SpaceParams } from '../spaces/spaces.schema.ts';
import { UserWire } from '../users/user.presenter.ts';

export const MAX_COMMENT_MARKDOWN = 100_000;
const MAX_REACTIONS_PER_REQUEST = 20;

/**
 * An emoji as GitBook sends it: the character (sequence) itself, or its code point(s) in hex
 * (`1f389`, `1f468-200d-1f469`), read as its one canonical spelling (see canonicalEmoji), so
 * `1f389`, `1F389` and 🎉 are one reaction. Shortcodes (`:tada:`) and arbitrary text are refused.
 */
const Emoji = z
  .string()
  .min(1)
  .max(50)
  .transform((value, ctx) => {
    const emoji = canonicalEmoji(value);
    if (emoji === null) ctx.addIssue({ code: 'custom', message: 'must be exactly one emoji, or its hex code point(s)' });
    return emoji ?? value;
  })
  .meta({ id: 'Emoji' });

/**
 * A body as written: `{markdown}`, `{document}` or `{}` (empty). Unknown keys are refused, so
 * a misspelt key is a 400 rather than a silently empty comment.
 */
export const CommentBodyInput = z
  .object({
    markdown: z.string().max(MAX_COMMENT_MARKDOWN).optional(),
    document: RichTextDocument.optional(),
  })
  .strict()
  .refine((b) => b.markdown === undefined || b.document === undefined, { message: 'give markdown or document, not both' })
  .openapi({ description: 'One of `{markdown}`, `{document}` or `{}` (an empty body). Markdown is stored exactly as given.' });
export type WrittenBody = z.infer<typeof CommentBodyInput>;

const TableCellTarget = z.object({ record: z.string().min(1).max(100), definition: z.string().min(1).max(100) }).meta({ id: 'TableCellTarget' });

export const PostCommentBody = z.object({
  node: z.string().min(1).max(100).optional().openapi({ description: 'A node of the page’s document' }),
  page: Id.optional().openapi({ description: 'A page of the content the comment is posted on' }),
  body: CommentBodyInput,
  tableCell: TableCellTarget.optional(),
});

export const PostReplyBody = z.object({ body: CommentBodyInput });

const reactionChanges = {
  addedReactions: z.array(Emoji).max(MAX_REACTIONS_PER_REQUEST).optional(),
  removedReactions: z.array(Emoji).max(MAX_REACTIONS_PER_REQUEST).optional(),
};
const notBoth = (b: { addedReactions?: string[] | undefined; removedReactions?: string[] | undefined }) =>
  !b.addedReactions?.some((e) => b.removedReactions?.includes(e));
const bothMessage = { message: 'an emoji cannot be both added and removed', path: ['removedReactions'] };

export const UpdateCommentBody = z
  .object({ resolved: z.boolean().optional(), body: CommentBodyInput.optional(), ...reactionChanges })
  .refine(notBoth, bothMessage);

export const UpdateReplyBody = z.object({ body: CommentBodyInput.optional(), ...reactionChanges }).refine(notBoth, bothMessage);

export const BodyFormat = z.enum(['markdown', 'document']).default('markdown').openapi({ description: 'Form of the bodies answered' });
export const FormatQuery = z.object({ format: BodyFormat });

/** `authors=a&authors=b` arrives as an array, a single `authors=a` as a string. */
const Authors = z
  .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(Id).max(100))
  .optional()
  .openapi({ type: 'array', items: { type: 'string' }, description: 'User ids; repeat the key for several' });

export const ListCommentsQuery = PagingQuery.extend({
  order: Order,
  status: z.enum(['all', 'open', 'resolved']).default('all'),
  format: BodyFormat,
  targetPage: Id.optional(),
  authors: Authors,
});

export const ListRepliesQuery = PagingQuery.extend({ format: BodyFormat });

export const SpaceCommentParams = SpaceParams.extend({ commentId: Id });
export const SpaceReplyParams = SpaceCommentParams.extend({ commentReplyId: Id });

const BodyWire = z.union([z.object({ markdown: z.string() }), z.object({ document: RichTextDocument }), z.object({})]);

const Reactions = z.array(
  z.object({
    emoji: z.string(),
    count: z.number().int(),
    users: z.array(z.object({ user: UserWire, reactedAt: z.string() })),
  }),
);

const Permissions = z.object({ view: z.boolean(), edit: z.boolean(), delete: z.boolean(), reply: z.boolean() });

const posted = {
  id: z.string(),
  postedBy: UserWire,
  postedAt: z.string(),
  editedAt: z.string().optional(),
  reactions: Reactions,
  body: BodyWire,
  urls: z.object({ location: z.string() }),
  permissions: Permissions,
};

const Target = z.object({
  space: z.string(),
  revision: z.string(),
  changeRequest: z.string().optional(),
  /** The review whose comment this thread is. */
  review: z.string().optional(),
  page: z.object({ id: z.string() }).optional(),
  node: z.object({ id: z.string() }).optional(),
  tableCell: TableCellTarget.optional(),
});

const thread = {
  object: z.literal('comment'),
  ...posted,
  replies: z.number().int(),
  repliers: z.array(z.object({ updatedAt: z.string(), count: z.number().int(), user: UserWire })),
  target: Target,
};

export const CommentWire = z
  .discriminatedUnion('status', [
    z.object({ ...thread, status: z.literal('open') }),
    z.object({ ...thread, status: z.literal('resolved'), resolvedAt: z.string(), resolvedBy: UserWire }),
  ])
  .meta({ id: 'Comment' });

export const CommentReplyWire = z.object({ object: z.literal('comment-reply'), ...posted }).meta({ id: 'CommentReply' });
