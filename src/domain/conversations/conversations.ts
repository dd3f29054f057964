import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConversationIssue } from '../entities/conversation-issue.entity.ts';
import { Conversation } from '../entities/conversation.entity.ts';
import { notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';

/** Newest conversations first (by when they happened), optionally of one source. */
export function listConversations(em: EntityManager, organizationId: string, filters: { source?: string | undefined }, page: PageRequest) {
  const where: FilterQuery<Conversation> = { organization: organizationId, ...(filters.source !== undefined ? { source: filters.source } : {}) };
  return findPage(em, Conversation, where, byTime('createdAt', 'desc'), page);
}

export async function getConversation(em: EntityManager, organizationId: string, id: string): Promise<Conversation> {
  const conversation = await em.findOne(Conversation, { id, organization: organizationId });
  if (!conversation) throw notFound('Conversation');
  return conversation;
}

/** Newest issues first, optionally of one cluster or one conversation; each with its conversation. */
export function listIssues(
  em: EntityManager,
  organizationId: string,
  filters: { cluster?: string | undefined; conversation?: string | undefined },
  page: PageRequest,
) {
  const where: FilterQuery<ConversationIssue> = {
    organization: organizationId,
    ...(filters.cluster !== undefined ? { cluster: filters.cluster } : {}),
    ...(filters.conversation !== undefined ? { conversation: filters.conversation } : {}),
  };
  return findPage(em, ConversationIssue, where, byTime('createdAt', 'desc'), page, { populate: ['conversation'] });
}

export async function getIssue(em: EntityManager, organizationId: string, id: string): Promise<ConversationIssue> {
  const issue = await em.findOne(ConversationIssue, { id, organization: organizationId }, { populate: ['conversation'] });
  if (!issue) throw notFound('Conversation issue');
  return issue;
}
