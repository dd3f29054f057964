import { getCluster, listClusters } from '../../domain/conversations/clusters.ts';
import { organizationResource, organizationRules } from '../../domain/organizations/organization.policy.ts';
import { paged } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentClusters } from './conversations.presenter.ts';
import { ClusterParams, ClusterWire, ListClustersQuery } from './conversations.schema.ts';

const tags = ['conversations'];

export const clustersRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations-clusters',
    operationId: 'listConversationsIssuesClusters',
    summary: 'Clusters of similar issues',
    tags,
    params: OrgParams,
    query: ListClustersQuery,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'viewConversations' },
    responses: { 200: { description: 'Clusters', schema: paged(ClusterWire) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listClusters(em, org.organization.id, query, query);
      return { status: 200, body: { ...page, items: await presentClusters(em, page.items, deps.clock.now(), deps.urls) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/conversations-clusters/{clusterId}',
    operationId: 'getConversationsIssuesCluster',
    summary: 'One cluster of similar issues',
    tags,
    params: ClusterParams,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'viewConversations' },
    responses: { 200: { description: 'The cluster', schema: ClusterWire } },
    async handle({ em, params, deps, subject: org }) {
      const cluster = await getCluster(em, org.organization.id, params.clusterId);
      const [body] = await presentClusters(em, [cluster], deps.clock.now(), deps.urls);
      return { status: 200, body };
    },
  }),
];
