import { Member } from '../../domain/entities/member.entity.ts';
import { Organization } from '../../domain/entities/organization.entity.ts';
import { emailDomainOf } from '../../domain/entities/user.entity.ts';
import { getAgentInstructions, setAgentInstructions } from '../../domain/organizations/agent-instructions.ts';
import { joinByEmailDomain } from '../../domain/organizations/invites.ts';
import { loadOrgAccess } from '../../domain/organizations/org-access.ts';
import { organizationRules } from '../../domain/organizations/organization.policy.ts';
import { updateOrganization } from '../../domain/organizations/update-organization.ts';
import { authorize } from '../../domain/policy/authorize.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { byTime, findPage } from '../../domain/shared/paging.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { presentAgentInstructions, presentOrganization } from './orgs.presenter.ts';
import {
  AgentInstructionsBody,
  AgentInstructionsSchema,
  EmailDomainParams,
  OrganizationSchema,
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
    responses: { 200: { description: 'Organizations', schema: paged(OrganizationSchema) } },
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
    responses: { 200: { description: 'The organization', schema: OrganizationSchema } },
    async handle({ actor, em, params, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
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
    responses: { 200: { description: 'The updated organization', schema: OrganizationSchema } },
    async handle({ actor, em, params, body, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'update');
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
    responses: { 200: { description: 'Agent instructions', schema: AgentInstructionsSchema } },
    async handle({ actor, em, params, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'readAgentInstructions');
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
    responses: { 200: { description: 'Agent instructions', schema: AgentInstructionsSchema } },
    async handle({ actor, em, params, body, deps }) {
      const access = await loadOrgAccess(em, actor, params.organizationId);
      authorize(organizationRules, access, 'updateAgentInstructions');
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
    responses: {
      200: { description: 'Organizations', schema: z.object({ organizations: z.array(OrganizationSchema) }) },
    },
    async handle({ actor, em, params, deps }) {
      const domain = params.emailDomain.toLowerCase();
      // GitBook reserves this for its staff; Vellum answers a user only about their own domain.
      if (domain !== emailDomainOf(actor.user)) {
        throw new ForbiddenError('You can only look up organizations for your own e-mail domain');
      }
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
