import { CHANGE_REQUEST_STATUSES } from '../../domain/entities/change-request.entity.ts';
import { Id, PagingQuery, RichTextDocument } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { UserWire } from '../users/user.presenter.ts';

export const ChangeRequestStatus = z.enum(CHANGE_REQUEST_STATUSES).meta({ id: 'ChangeRequestStatus' });
/** What a PATCH may set: `merged` comes only from merging. */
export const SettableStatus = z.enum(['draft', 'open', 'archived']);
export const Subject = z.string().max(100).meta({ id: 'ChangeRequestSubject' });

export const ChangeRequestWire = z
  .object({
    object: z.literal('change-request'),
    id: z.string(),
    number: z.number().int(),
    status: ChangeRequestStatus,
    subject: z.string(),
    description: RichTextDocument.optional(),
    createdBy: UserWire,
    createdAt: z.string(),
    updatedAt: z.string(),
    space: z.string(),
    revision: z.string(),
    revisionInitial: z.string(),
    revisionMergedAncestor: z.string(),
    revisionMerged: z.string().optional(),
    comments: z.number().int(),
    outdated: z.boolean().openapi({
      description: 'True while the change request is draft or open and the space’s current revision is not the one it is based on (`revisionMergedAncestor`); false once merged or archived.',
    }),
    conversationsIssuesCluster: z.string().optional(),
    urls: z.object({ app: z.string(), location: z.string() }),
  })
  .meta({ id: 'ChangeRequest' });

export const ChangeRequestParams = z.object({ spaceId: Id, changeRequestId: Id.openapi({ description: 'The change request’s id, or its number in the space' }) });

/** A cluster id to link, or null (PATCH only) to unlink. */
const ClusterRef = Id.openapi({ description: 'An issue cluster of the space’s organization this change request addresses (Vellum; beyond GitBook)' });

/** GitBook clients send `{subject?, agentTaskId?}` or nothing at all; the rest is Vellum's. */
export const CreateChangeRequestBody = z
  .object({
    subject: Subject.optional(),
    agentTaskId: z.string().max(100).optional().openapi({ description: 'Accepted for GitBook compatibility; Vellum runs no agent tasks and keeps nothing of it' }),
    description: RichTextDocument.optional(),
    status: z.enum(['draft', 'open']).optional().openapi({ description: 'Vellum: open it straight away (default `draft`)' }),
    conversationsIssuesCluster: ClusterRef.optional(),
  })
  .optional();

export const UpdateChangeRequestBody = z.object({
  subject: Subject.optional(),
  description: RichTextDocument.nullable().optional().openapi({ description: 'null clears it (Vellum)' }),
  status: SettableStatus.optional().openapi({ description: '`merged` is reached only by merging; a merged change request keeps its status (409)' }),
  conversationsIssuesCluster: ClusterRef.nullable().optional().openapi({ description: 'null unlinks it (Vellum)' }),
});

export const ListChangeRequestsQuery = PagingQuery.extend({
  status: ChangeRequestStatus.default('open').openapi({ description: 'Only change requests with this status (default `open`)' }),
  creator: Id.optional().openapi({ description: 'Only those this user created' }),
  contributor: Id.optional().openapi({ description: 'Only those this user put content into' }),
  requestedReviewer: Id.optional().openapi({ description: 'Only those this user was asked to review' }),
  conversationsIssuesCluster: Id.optional().openapi({ description: 'Only those linked to this issue cluster' }),
});
