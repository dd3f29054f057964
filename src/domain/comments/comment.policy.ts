import { spaceRules, type ContentView } from '../content/content.policy.ts';
import { rule, type ActionChoice, type Rules } from '../policy/authorize.ts';

/**
 * A comment (thread or reply) as seen by a caller: their role on its space, and whether
 * they wrote it. Comments are discussion, not content: a locked space still takes them.
 */
export type CommentView = ContentView & { author: boolean };

const commenter = (v: ContentView) => spaceRules.comment(v);

export const commentRules = {
  view: rule<CommentView>('role read or above', (v) => spaceRules.view(v)),
  reply: rule<CommentView>('role comment or above', commenter),
  react: rule<CommentView>('role comment or above', commenter),
  resolve: rule<CommentView>('role comment or above', commenter),
  edit: rule<CommentView>(
    'the author, with role comment or above',
    (v) => v.author && commenter(v),
    'Only the author of a comment may change its body',
  ),
  delete: rule<CommentView>(
    'the author with role comment or above, or role admin or above',
    (v) => (v.author && commenter(v)) || spaceRules.admin(v),
    'Only the author of a comment or an admin of the space may delete it',
  ),
} satisfies Rules<CommentView>;

export const COMMENT_PERMISSION_KEYS = ['view', 'edit', 'delete', 'reply'] as const;

type UpdateInput = { body: { body?: unknown; resolved?: boolean | undefined } };

/** Changing the body is the author's; resolving, reopening and reacting are any commenter's. */
export const updateCommentAction: ActionChoice<'edit' | 'resolve' | 'react', UpdateInput> = {
  actions: ['edit', 'resolve', 'react'],
  doc: '`edit` is needed to change the body, `resolve` to resolve or reopen, `react` to add or remove reactions.',
  choose: ({ body }) => (body.body !== undefined ? 'edit' : body.resolved !== undefined ? 'resolve' : 'react'),
};
