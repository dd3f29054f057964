import { Member } from '../../domain/entities/member.entity.ts';
import { Organization } from '../../domain/entities/organization.entity.ts';
import { getAgentInstructions, setAgentInstructions } from '../../domain/organizations/agent-instructions.ts';
import { joinByEmailDomain } from '../../domain/organizations/invites.ts';
import { organizationResource, organizationRules } from '../../domain/organizations/organization.policy.ts';
import { emailDomainResource, emailDomainRules } from '../../domain/organizations/user.policy.ts';
import { updateOrganization } from '../../domain/organizations/update-organization.ts';
import { byTime, findPage } from '../../domain/shared/paging.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { presentAgentInstructions, presentOrganization } from './orgs.presenter.ts';
import {
  AgentInstructionsBody,
  AgentInstructionsWire,
  EmailDomainParams,
  OrganizationWire,
  OrgParams,
  UpdateOrganizationBody,
} from './orgs.schema.ts';

const tags = ['organizations'];

export const orgsRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs',
    operationId: 'listOrganizationsForAuthenticatedUser',
    summary: 'Organizations the caller is a member of',
    tags,
    query: PagingQuery,
    responses: { 200: { description: 'Organizations', schema: paged(OrganizationWire) } },
    async handle({ actor, em, query, deps }) {
      const page = await findPage(
        em,
        Member,
        { user: actor.user, disabled: false },
        byTime('joinedAt', 'asc'),
        query,
        { populate: ['organization'] },
      );
      const items = page.items.map((member) =>
        presentOrganization({ actor, member, organization: member.organization.getEntity() }, deps.urls),
      );
      return { status: 200, body: { ...page, items } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}',
    operationId: 'getOrganizationById',
    summary: 'One organization',
    tags,
    auth: 'any',
    params: OrgParams,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'view' },
    responses: { 200: { description: 'The organization', schema: OrganizationWire } },
    async handle({ deps, subject: access }) {
      return { status: 200, body: presentOrganization(access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{organizationId}',
    operationId: 'updateOrganizationById',
    summary: 'Change an organization',
    tags,
    params: OrgParams,
    body: UpdateOrganizationBody,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'update' },
    responses: { 200: { description: 'The updated organization', schema: OrganizationWire } },
    async handle({ em, body, deps, subject: access }) {
      await updateOrganization(em, access.organization, body);
      return { status: 200, body: presentOrganization(access, deps.urls) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/join',
    operationId: 'joinOrganization',
    summary: 'Join an organization that admits the caller’s e-mail domain',
    tags,
    params: OrgParams,
    responses: { 204: { description: 'Joined (or already a member)' } },
    async handle({ actor, em, params }) {
      await joinByEmailDomain(em, params.organizationId, actor.user);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/agent-instructions',
    operationId: 'getOrganizationAgentInstructions',
    summary: 'The instructions given to AI agents working in this organization',
    tags,
    params: OrgParams,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'readAgentInstructions' },
    responses: { 200: { description: 'Agent instructions', schema: AgentInstructionsWire } },
    async handle({ em, deps, subject: access }) {
      const doc = await getAgentInstructions(em, access.organization);
      return { status: 200, body: presentAgentInstructions(doc, deps.urls) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/agent-instructions',
    operationId: 'updateOrganizationAgentInstructions',
    summary: 'Replace the agent instructions',
    tags,
    params: OrgParams,
    body: AgentInstructionsBody,
    load: organizationResource,
    authorize: { rules: organizationRules, action: 'updateAgentInstructions' },
    responses: { 200: { description: 'Agent instructions', schema: AgentInstructionsWire } },
    async handle({ actor, em, body, deps, subject: access }) {
      const doc = await setAgentInstructions(em, access.organization, body.instructions, actor.user);
      return { status: 200, body: presentAgentInstructions(doc, deps.urls) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/email-domains/{emailDomain}/orgs',
    operationId: 'getOrganizationsForEmailDomain',
    summary: 'Organizations that people of the caller’s own e-mail domain may join',
    tags,
    params: EmailDomainParams,
    load: emailDomainResource,
    authorize: { rules: emailDomainRules, action: 'lookUp' },
    responses: {
      200: { description: 'Organizations', schema: z.object({ organizations: z.array(OrganizationWire) }) },
    },
    async handle({ actor, em, deps, subject: { emailDomain: domain } }) {
      const orgs = await em.find(Organization, { emailDomains: { $contains: [domain] } }, { limit: 100, orderBy: { createdAt: 'asc' } });
      const memberships = await em.find(Member, { user: actor.user, organization: { $in: orgs } });
      const byOrg = new Map(memberships.map((m) => [m.organization.id, m]));
      const organizations = orgs.map((organization) =>
        presentOrganization({ actor, organization, member: byOrg.get(organization.id) ?? null }, deps.urls),
      );
      return { status: 200, body: { organizations } };
    },
  }),
];
