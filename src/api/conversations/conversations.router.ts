import { getConversation, getIssue, listConversations, listIssues } from '../../domain/conversations/conversations.ts';
import { ingestConversations, installationSource } from '../../domain/conversations/ingest.ts';
import { organizationResource, organizationRules } from '../../domain/organizations/organization.policy.ts';
import { extractIssuesJob } from '../../jobs/extract-issues.job.ts';
import { paged } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentConversation, presentConversationDetail, presentIssueItem } from './conversations.presenter.ts';
import {
  ConversationDetail,
  ConversationParams,
  ConversationWire,
  IngestBody,
  IssueItem,
  IssueParams,
  ListConversationsQuery,
  ListIssuesQuery,
} from './conversations.schema.ts';

const tags = ['conversations'];
const readConversations = { rules: organizationRules, action: 'viewConversations' } as const;

export const conversationsRoutes = [
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/conversations',
    operationId: 'ingestConversation',
    summary: 'Ingest one support conversation or a batch of them; issues are extracted in the background',
    tags,
    auth: 'installation',
    params: OrgParams,
    body: IngestBody,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'ingestConversations' },
    transactional: true,
    responses: { 204: { description: 'Stored; extraction is queued' } },
    async handle({ em, body, actor, deps, outbox, subject: org }) {
      const batch = Array.isArray(body) ? body : [body];
      await ingestConversations(em, org.organization.id, installationSource(actor.installation), batch, deps.clock.now());
      // One job per request: it extracts whatever of the organization is pending.
      outbox.add(em, extractIssuesJob, { organizationId: org.organization.id });
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations',
    operationId: 'listConversations',
    summary: 'Conversations of an organization, newest first',
    tags,
    params: OrgParams,
    query: ListConversationsQuery,
    load: organizationResource,
    authorize: readConversations,
    responses: { 200: { description: 'Conversations', schema: paged(ConversationWire) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listConversations(em, org.organization.id, query, query);
      return { status: 200, body: { ...page, items: page.items.map((c) => presentConversation(c, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations/{conversationId}',
    operationId: 'getConversationById',
    summary: 'One conversation with its messages',
    tags,
    params: ConversationParams,
    load: organizationResource,
    authorize: readConversations,
    responses: { 200: { description: 'The conversation', schema: ConversationDetail } },
    async handle({ em, params, deps, subject: org }) {
      const conversation = await getConversation(em, org.organization.id, params.conversationId);
      return { status: 200, body: presentConversationDetail(conversation, deps.urls) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations-issues',
    operationId: 'listConversationsIssues',
    summary: 'Issues extracted from the organization’s conversations, newest first',
    tags,
    params: OrgParams,
    query: ListIssuesQuery,
    load: organizationResource,
    authorize: readConversations,
    responses: { 200: { description: 'Issues with their conversations', schema: paged(IssueItem) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listIssues(em, org.organization.id, query, query);
      return { status: 200, body: { ...page, items: page.items.map((i) => presentIssueItem(i, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations-issues/{issueId}',
    operationId: 'getConversationIssueById',
    summary: 'One issue with its conversation',
    tags,
    params: IssueParams,
    load: organizationResource,
    authorize: readConversations,
    responses: { 200: { description: 'The issue', schema: IssueItem } },
    async handle({ em, params, deps, subject: org }) {
      return { status: 200, body: presentIssueItem(await getIssue(em, org.organization.id, params.issueId), deps.urls) };
    },
  }),
];
