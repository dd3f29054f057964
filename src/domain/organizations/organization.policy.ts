import type { Actor } from '../auth/actor.ts';
import { roleAtLeast, type Role } from '../shared/roles.ts';
import { rule, type ActionChoice, type Resource, type Rules } from '../policy/authorize.ts';
import { loadOrgView, roleOf, type OrgView } from './org-view.ts';

const isAdmin = rule<OrgView>('organization admin', (a) => roleOf(a) === 'admin');
/** Members with an organization-wide role; guests (role null) see only what is shared with them. */
const isFullMember = rule<OrgView>('member with an organization role (not a guest)', (a) => {
  const role = roleOf(a);
  return role !== undefined && role !== null;
});
const atLeast = (role: Role) =>
  rule<OrgView>(`organization role ${role} or above`, (a) => {
    const r = roleOf(a);
    return r !== undefined && roleAtLeast(r, role);
  });

/**
 * Organization-level rules. Keys that GitBook reports in `Organization.permissions`
 * come first; the rest are actions only routes ask about.
 */
export const organizationRules = {
  view: rule<OrgView>('member or integration installation', (a) => a.member !== null || a.actor.kind === 'installation'),
  admin: isAdmin,
  ownTeam: isAdmin,
  createContent: atLeast('create'),
  createOpenAPISpec: atLeast('create'),
  ingestConversations: rule<OrgView>('organization admin or integration installation', (a) => a.actor.kind === 'installation' || isAdmin(a)),
  viewBilling: isAdmin,
  listMembers: isFullMember,
  listTeams: isFullMember,
  listIntegrations: isFullMember,
  listInstallations: isFullMember,
  installIntegration: isAdmin,

  update: isAdmin,
  manageMembers: isAdmin,
  manageInvites: isAdmin,
  manageSso: isAdmin,
  readAgentInstructions: isFullMember,
  updateAgentInstructions: isAdmin,
  ping: rule<OrgView>('member', (a) => a.member !== null),
  /**
   * Support conversations hold what customers wrote: members with an organization role
   * read them and what is derived from them; guests (shared single spaces) do not.
   */
  viewConversations: isFullMember,
} satisfies Rules<OrgView>;

export const ORGANIZATION_PERMISSION_KEYS = [
  'view',
  'admin',
  'ownTeam',
  'createContent',
  'createOpenAPISpec',
  'ingestConversations',
  'viewBilling',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
  'installIntegration',
] as const;

/** An organization the caller belongs to (404 for any other, so ids reveal nothing). */
export const organizationResource: Resource<OrgView, OrgView, { params: { organizationId: string } }> = {
  name: 'organization',
  load: (em, actor, { params }) => loadOrgView(em, actor, params.organizationId),
  view: (org) => org,
};

type SelfInput = { actor: Actor; params: { userId: string } };

/** Members may always read and leave their own membership; for anyone else's, `action` applies. */
export function selfOr<K extends keyof typeof organizationRules & string>(action: K): ActionChoice<K, SelfInput> {
  return {
    actions: [action],
    doc: 'Not needed for the caller’s own membership.',
    choose: ({ actor, params }) => (actor.kind === 'user' && actor.user.id === params.userId ? null : action),
  };
}
