import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Conversation } from './conversation.entity.ts';
import { IssueCluster } from './issue-cluster.entity.ts';
import { Organization } from './organization.entity.ts';

/**
 * A problem a customer raised in a conversation. Extraction writes a conversation's issues
 * by (conversation, ordinal), so running it again updates them in place (same ids) rather
 * than adding more.
 */
export const ConversationIssueSchema = defineEntity({
  name: 'ConversationIssue',
  tableName: 'conversation_issues',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    conversation: () => p.manyToOne(Conversation).ref().deleteRule('cascade'),
    /** Position among its conversation's issues (0 for the first). */
    ordinal: p.smallint(),
    title: p.string().length(100),
    summary: p.text(),
    /** When the issue was first extracted. */
    createdAt: p.datetime(),
    /** When its conversation was last ingested. */
    ingestedAt: p.datetime(),
    /** Set by clustering; cleared when a new extraction changes the issue's text. */
    cluster: () => p.manyToOne(IssueCluster).ref().nullable().deleteRule('set null'),
    /** Its vector from the embeddings endpoint (float32 little-endian); cleared with `cluster` when its text changes. */
    embedding: p.blob().nullable().lazy(),
    /** The embeddings model that made `embedding`. */
    embeddingModel: p.text().nullable(),
  },
  uniques: [{ properties: ['conversation', 'ordinal'] }],
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }, { properties: ['cluster', 'createdAt', 'id'] }],
});

export class ConversationIssue extends ConversationIssueSchema.class {}
ConversationIssueSchema.setClass(ConversationIssue);
