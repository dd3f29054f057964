import { changeRequestCommentsResource, spaceCommentsResource } from '../../domain/comments/comment-scope.ts';
import { Id } from '../http/common.schema.ts';
import { SpaceParams } from '../spaces/spaces.schema.ts';
import { commentRoutes } from './comment-routes.ts';
import { UpdateCommentBody, UpdateReplyBody } from './comments.schema.ts';

/** A space's own comments: GitBook's space comment operations, with the two reply operations the seed omits. */
const spaceComments = commentRoutes({
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

/**
 * A change request's discussion. As in GitBook, its reply update takes the comment update
 * body: `resolved` there resolves or reopens the reply's thread.
 */
const changeRequestComments = commentRoutes({
  base: '/spaces/{spaceId}/change-requests/{changeRequestId}',
  noun: 'change request',
  params: SpaceParams.extend({ changeRequestId: Id.openapi({ description: 'The change request’s id or its number in the space' }) }),
  scope: changeRequestCommentsResource,
  operationIds: {
    list: 'listCommentsInChangeRequest',
    post: 'postCommentInChangeRequest',
    get: 'getCommentInChangeRequest',
    update: 'updateCommentInChangeRequest',
    delete: 'deleteCommentInChangeRequest',
    listReplies: 'listCommentRepliesInChangeRequest',
    postReply: 'postCommentReplyInChangeRequest',
    getReply: 'getCommentReplyInChangeRequest',
    updateReply: 'updateCommentReplyInChangeRequest',
    deleteReply: 'deleteCommentReplyInChangeRequest',
  },
  updateReplyBody: UpdateCommentBody,
  postReplyFormat: true,
});

export const commentsRoutes = [...spaceComments, ...changeRequestComments];
