import { defineEntity, p } from '@mikro-orm/core';
import { Comment } from './comment.entity.ts';
import { User } from './user.entity.ts';

/** One user's reaction with one emoji to a comment or reply: the key makes adding it twice a no-op. */
export const CommentReactionSchema = defineEntity({
  name: 'CommentReaction',
  tableName: 'comment_reactions',
  properties: {
    comment: () => p.manyToOne(Comment).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).ref().primary().deleteRule('cascade'),
    emoji: p.string().length(50).primary(),
    reactedAt: p.datetime().onCreate(() => new Date()),
  },
});

export class CommentReaction extends CommentReactionSchema.class {}
CommentReactionSchema.setClass(CommentReaction);
