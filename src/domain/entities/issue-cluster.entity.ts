import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

/**
 * Where a cluster stands: `analysing` while a full re-clustering of its organization runs
 * (its issues, label and summary may change when the run commits), `ready` otherwise.
 * `pending` (a cluster waiting for its description) is GitBook's and the list filter
 * offers it; the offline clustering describes a cluster as it writes it, so it never
 * writes `pending`.
 */
export type ClusterStatus = 'pending' | 'analysing' | 'ready';

/**
 * A group of similar conversation issues, written by the clustering step. Its counts
 * (issues, conversations, sources, weekly pulse) are not stored: they are computed from
 * its issues when presented, so they cannot drift from them.
 */
export const IssueClusterSchema = defineEntity({
  name: 'IssueCluster',
  tableName: 'conversation_issue_clusters',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    label: p.string().length(255),
    summary: p.text(),
    /** An icon name (at most 50 characters, GitBook's `Icon`). */
    icon: p.string().length(50),
    status: p.string().length(16).$type<ClusterStatus>().default('pending'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'updatedAt', 'id'] }, { properties: ['organization', 'status'] }],
});

export class IssueCluster extends IssueClusterSchema.class {}
IssueClusterSchema.setClass(IssueCluster);
