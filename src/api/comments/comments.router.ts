import { spaceCommentsResource } from '../../domain/comments/comment-scope.ts';
import { SpaceParams } from '../spaces/spaces.schema.ts';
import { commentRoutes } from './comment-routes.ts';
import { UpdateReplyBody } from './comments.schema.ts';

/** A space's own comments: GitBook's space comment operations, with the two reply operations the seed omits. */
export const spaceCommentRoutes = commentRoutes({
  base: '/spaces/{spaceId}',
  noun: 'space',
  params: SpaceParams,
  scope: spaceCommentsResource,
  operationIds: {
    list: 'listCommentsInSpace',
    post: 'postCommentInSpace',
    get: 'getCommentInSpace',
    update: 'updateCommentInSpace',
    delete: 'deleteCommentInSpace',
    listReplies: 'listCommentRepliesInSpace',
    postReply: 'postCommentReplyInSpace',
    getReply: 'getCommentReplyInSpace',
    updateReply: 'updateCommentReplyInSpace',
    deleteReply: 'deleteCommentReplyInSpace',
  },
  updateReplyBody: UpdateReplyBody,
  postReplyFormat: false,
});
