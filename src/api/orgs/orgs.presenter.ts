import type { Organization } from '../../domain/entities/organization.entity.ts';
import type { AgentInstructions } from '../../domain/entities/agent-instructions.entity.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import { ORGANIZATION_PERMISSION_KEYS, organizationRules } from '../../domain/organizations/organization.policy.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { AgentInstructionsWire, OrganizationWire } from './orgs.schema.ts';

export function presentOrganization(access: OrgView, urls: Urls): z.infer<typeof OrganizationWire> {
  const o: Organization = access.organization;
  return {
    object: 'organization',
    id: o.id,
    title: o.title,
    createdAt: o.createdAt.toISOString(),
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    ...(o.useCase ? { useCase: o.useCase } : {}),
    ...(o.communityType ? { communityType: o.communityType } : {}),
    defaultRole: o.defaultRole,
    ...(o.defaultContent ? { defaultContent: o.defaultContent } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: o.plan,
    mergeRules: o.mergeRules as z.infer<typeof OrganizationWire>['mergeRules'],
    ...(o.customHostname ? { customHostname: o.customHostname } : {}),
    // Self-hosted: no trials and no billing, so the trial block only states that.
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    urls: {
      location: urls.location(`/orgs/${o.id}`),
      app: urls.appLink(`/o/${o.id}`),
      ...(o.logoURL ? { logo: o.logoURL } : {}),
    },
    permissions: permissionsOf(organizationRules, access, ORGANIZATION_PERMISSION_KEYS),
  };
}

export function presentAgentInstructions(doc: AgentInstructions, urls: Urls): z.infer<typeof AgentInstructionsWire> {
  return {
    object: 'agent-instructions',
    instructions: doc.instructions,
    updatedAt: doc.updatedAt.toISOString(),
    updatedBy: doc.updatedBy,
    urls: { location: urls.location(`/orgs/${doc.organization.id}/agent-instructions`) },
  };
}
