import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { RoleOrGuest } from '../shared/roles.ts';

export type OrganizationType = 'business' | 'community';
export type OrgMergeRules = { type: 'none' } | { type: 'rules'; rules: MergeRule[] };
export type MergeRule =
  | { rule: 'require_specific_reviewers' | 'require_one_of_specific_reviewers' | 'allow_bypass'; users: string[] }
  | { rule: 'custom'; expression: string }
  | { rule: string };
export type DefaultContent = { type: 'site'; site: string };

export const OrganizationSchema = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    title: p.string().length(255),
    emailDomains: p.array().default([]),
    hostname: p.string().length(32).nullable().unique(),
    type: p.string().length(16).$type<OrganizationType>().default('business'),
    useCase: p.string().length(32).nullable(),
    communityType: p.string().length(32).nullable(),
    defaultRole: p.string().length(16).$type<RoleOrGuest>().nullable(),
    defaultContent: p.json<DefaultContent>().nullable(),
    sso: p.boolean().default(false),
    ai: p.boolean().default(false),
    inviteLinks: p.boolean().default(true),
    plan: p.string().length(32).default('free'),
    mergeRules: p.json<OrgMergeRules>().onCreate(() => ({ type: 'none' as const })),
    logoURL: p.string().length(2048).nullable(),
    customHostname: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  // GET /email-domains/{domain}/orgs searches inside the array.
  indexes: [{ properties: ['emailDomains'], type: 'gin' }],
});

export class Organization extends OrganizationSchema.class {}
OrganizationSchema.setClass(Organization);
