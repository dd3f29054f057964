import { CLUSTER_ORDERS } from '../../domain/conversations/clusters.ts';
import { Id, Order, PagingQuery } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

/** Conversations one ingest request may carry (the body limit, BODY_LIMIT, applies as well). */
export const MAX_INGEST_BATCH = 5000;

const Part = z
  .object({ type: z.literal('message'), role: z.enum(['user', 'assistant', 'team-member']), body: z.string().max(100_000) })
  .meta({ id: 'ConversationPartMessage' });

const Metadata = z
  .object({
    url: z.string().max(2048).optional(),
    attributes: z.record(z.string().max(255), z.string().max(10_000)).optional(),
    // ISO 8601 has a year 0000 that PostgreSQL has not (its calendar starts at 1 AD).
    createdAt: z.iso
      .datetime({ offset: true })
      .refine((v) => new Date(v).getUTCFullYear() >= 1, 'expected a date in year 1 or later')
      .optional(),
  })
  .meta({ id: 'ConversationMetadata' });

export const ConversationInput = z
  .object({
    id: z.string().min(1).max(255).openapi({ description: 'The conversation’s id at its source; posting it again updates it' }),
    metadata: Metadata.optional(),
    subject: z.string().max(512).optional(),
    parts: z.array(Part).max(1000),
  })
  .meta({ id: 'ConversationInput' });

/** One conversation, or a batch (all or nothing; within a batch the last of an id wins). */
export const IngestBody = z.union([ConversationInput, z.array(ConversationInput).min(1).max(MAX_INGEST_BATCH)]);

export const ConversationParams = z.object({ organizationId: Id, conversationId: Id });
export const IssueParams = z.object({ organizationId: Id, issueId: Id });
export const ClusterParams = z.object({ organizationId: Id, clusterId: Id });

export const ListConversationsQuery = PagingQuery.extend({
  source: z.string().min(1).max(255).optional().openapi({ description: '`email` or `integration:<integration>:<installation>`' }),
});
export const ListIssuesQuery = PagingQuery.extend({
  cluster: Id.optional().openapi({ description: 'Only issues of this cluster' }),
  conversation: Id.optional().openapi({ description: 'Only issues of this conversation' }),
});
export const ListClustersQuery = PagingQuery.extend({
  order: Order,
  orderBy: z.enum(CLUSTER_ORDERS).default('updatedAt'),
  status: z.enum(['pending', 'analysing']).optional(),
});

export const ConversationWire = z
  .object({
    object: z.literal('conversation'),
    id: z.string(),
    subject: z.string().optional(),
    createdAt: z.string(),
    processedAt: z.string().optional(),
    source: z.string(),
    urls: z.object({ location: z.string(), source: z.string().optional() }),
  })
  .meta({ id: 'Conversation' });

export const ConversationDetail = z.object({ conversation: ConversationWire, parts: z.array(Part), metadata: Metadata });

export const ConversationIssueWire = z
  .object({
    object: z.literal('conversation-issue'),
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    createdAt: z.string(),
    ingestedAt: z.string(),
    conversation: z.string(),
    cluster: z.string().optional(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'ConversationIssue' });

export const IssueItem = z.object({ issue: ConversationIssueWire, conversation: ConversationWire });

export const ClusterWire = z
  .object({
    object: z.literal('issues-cluster'),
    id: z.string(),
    label: z.string(),
    summary: z.string(),
    icon: z.string().max(50),
    createdAt: z.string(),
    updatedAt: z.string(),
    weeklyPulse: z.array(z.number()).length(13),
    sources: z.record(z.string(), z.number()),
    stats: z.object({
      issues: z.number(),
      conversations: z.number(),
      tasksTotal: z.number(),
      tasksBacklog: z.number(),
      tasksStarted: z.number(),
      tasksCompleted: z.number(),
      tasksCancelled: z.number(),
    }),
    urls: z.object({ location: z.string(), app: z.string() }),
  })
  .meta({ id: 'ConversationsIssuesCluster' });
