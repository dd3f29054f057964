import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.entity.ts';

/**
 * An organization's clustering state: its current cluster model (what workers on any
 * machine need to place a new issue, encoded by cluster-model-codec.ts) with the cluster
 * id of each model cluster, and what decides the next full re-clustering. Written with SQL
 * by the clustering code (re-clustering, extraction batches), never through the identity map.
 */
export const ConversationClusteringSchema = defineEntity({
  name: 'ConversationClustering',
  tableName: 'conversation_clusterings',
  properties: {
    organization: () => p.oneToOne(Organization).primary().ref().deleteRule('cascade'),
    /** Grows with every re-clustering: the key of the decoded model in each process's cache. */
    version: p.integer().default(0),
    /** The encoded ClusterModel; null before the first re-clustering (or with no issues). */
    model: p.blob().nullable().lazy(),
    /** Cluster id of each model cluster, by its index in the model. */
    clusterIds: p.json<string[]>(),
    /** Issues the last re-clustering grouped. */
    issues: p.integer().default(0),
    /** Issues extracted new or changed since the last re-clustering read them. */
    newIssues: p.integer().default(0),
    /** A re-clustering job is recorded and has not finished: no other is requested meanwhile. */
    requestedAt: p.datetime().nullable(),
    /** A re-clustering is running (its clusters show `analysing`) since then. */
    startedAt: p.datetime().nullable(),
    clusteredAt: p.datetime().nullable(),
    /** How long the last re-clustering took, from its start to its commit. */
    durationMs: p.integer().nullable(),
  },
});

export class ConversationClustering extends ConversationClusteringSchema.class {}
ConversationClusteringSchema.setClass(ConversationClustering);
