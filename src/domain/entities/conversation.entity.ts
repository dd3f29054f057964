import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

export type ConversationPart = { type: 'message'; role: 'user' | 'assistant' | 'team-member'; body: string };
export type ConversationMetadata = { url?: string; attributes?: Record<string, string>; createdAt?: string };

/**
 * A support conversation an integration pushed. It is known by (organization, source,
 * externalId): re-ingesting the same id updates this row (same `id`) and clears
 * `processedAt`, so issue extraction runs again. Rows are written in bulk by
 * `ingestConversations` (one SQL statement), never through the identity map.
 */
export const ConversationSchema = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    /** `integration:<integration>:<installation>` or `email`. */
    source: p.string().length(255),
    /** The conversation's id at its source, as the integration sent it. */
    externalId: p.string().length(255),
    subject: p.string().length(512).nullable(),
    parts: p.json<ConversationPart[]>(),
    metadata: p.json<ConversationMetadata>(),
    /** When the conversation happened: `metadata.createdAt`, or the first ingestion time without one. */
    createdAt: p.datetime(),
    /** Last time it was ingested (a re-post moves it). */
    ingestedAt: p.datetime(),
    /** When issues were last extracted from its current content; null while extraction is due. */
    processedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['organization', 'source', 'externalId'] }],
  indexes: [
    // The list (newest first) and its `source` filter.
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['organization', 'source', 'createdAt', 'id'] },
    // What extraction still has to do, without scanning processed rows.
    {
      name: 'conversations_unprocessed_index',
      expression: 'create index "conversations_unprocessed_index" on "conversations" ("organization_id", "ingested_at") where "processed_at" is null',
    },
  ],
});

export class Conversation extends ConversationSchema.class {}
ConversationSchema.setClass(Conversation);
