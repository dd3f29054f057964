import type { EntityManager } from '@mikro-orm/postgresql';
import { clusterFigures } from '../../domain/conversations/cluster-figures.ts';
import type { ConversationIssue } from '../../domain/entities/conversation-issue.entity.ts';
import type { Conversation } from '../../domain/entities/conversation.entity.ts';
import type { IssueCluster } from '../../domain/entities/issue-cluster.entity.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { ClusterWire, ConversationDetail, ConversationIssueWire, ConversationWire } from './conversations.schema.ts';

const orgPath = (organizationId: string) => `/orgs/${organizationId}`;

export function presentConversation(c: Conversation, urls: Urls): z.infer<typeof ConversationWire> {
  const source = webUrl(c.metadata.url);
  return {
    object: 'conversation',
    id: c.id,
    ...(c.subject !== null ? { subject: c.subject } : {}),
    createdAt: c.createdAt.toISOString(),
    ...(c.processedAt ? { processedAt: c.processedAt.toISOString() } : {}),
    source: c.source,
    urls: { location: urls.location(`${orgPath(c.organization.id)}/conversations/${c.id}`), ...(source ? { source } : {}) },
  };
}

export function presentConversationDetail(c: Conversation, urls: Urls): z.infer<typeof ConversationDetail> {
  return { conversation: presentConversation(c, urls), parts: c.parts, metadata: c.metadata };
}

export function presentIssue(issue: ConversationIssue, urls: Urls): z.infer<typeof ConversationIssueWire> {
  return {
    object: 'conversation-issue',
    id: issue.id,
    title: issue.title,
    summary: issue.summary,
    createdAt: issue.createdAt.toISOString(),
    ingestedAt: issue.ingestedAt.toISOString(),
    conversation: issue.conversation.id,
    ...(issue.cluster ? { cluster: issue.cluster.id } : {}),
    urls: { location: urls.location(`${orgPath(issue.organization.id)}/conversations-issues/${issue.id}`) },
  };
}

/** An issue with its conversation (loaded with it). */
export function presentIssueItem(issue: ConversationIssue, urls: Urls) {
  return { issue: presentIssue(issue, urls), conversation: presentConversation(issue.conversation.getEntity(), urls) };
}

/** A page of clusters with their figures, computed from their issues and change requests in four grouped queries. */
export async function presentClusters(em: EntityManager, clusters: IssueCluster[], now: Date, urls: Urls): Promise<Array<z.infer<typeof ClusterWire>>> {
  const figures = await clusterFigures(em, clusters.map((c) => c.id), now);
  return clusters.map((cluster) => {
    const f = figures.get(cluster.id)!;
    const org = cluster.organization.id;
    return {
      object: 'issues-cluster',
      id: cluster.id,
      label: cluster.label,
      summary: cluster.summary,
      icon: cluster.icon,
      createdAt: cluster.createdAt.toISOString(),
      updatedAt: cluster.updatedAt.toISOString(),
      weeklyPulse: f.weeklyPulse,
      sources: f.sources,
      stats: {
        issues: f.issues,
        conversations: f.conversations,
        tasksTotal: f.tasks.total,
        tasksBacklog: f.tasks.backlog,
        tasksStarted: f.tasks.started,
        tasksCompleted: f.tasks.completed,
        tasksCancelled: f.tasks.cancelled,
      },
      urls: { location: urls.location(`${orgPath(org)}/conversations-clusters/${cluster.id}`), app: urls.appLink(`/o/${org}/insights/clusters/${cluster.id}`) },
    };
  });
}

/** `metadata.url` is whatever the integration sent; only a web address is offered as `urls.source`. */
function webUrl(url: string | undefined): string | undefined {
  return url !== undefined && /^https?:\/\/[^\s]+$/i.test(url) && URL.canParse(url) ? url : undefined;
}
