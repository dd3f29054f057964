import { roleAtLeast } from '../shared/roles.ts';
import type { Rules } from '../policy/authorize.ts';
import { roleOf, type OrgAccess } from './org-access.ts';

const isAdmin = (a: OrgAccess) => roleOf(a) === 'admin';
/** Members with an organization-wide role; guests (role null) see only what is shared with them. */
const isFullMember = (a: OrgAccess) => {
  const role = roleOf(a);
  return role !== undefined && role !== null;
};
const atLeast = (role: Parameters<typeof roleAtLeast>[1]) => (a: OrgAccess) => {
  const r = roleOf(a);
  return r !== undefined && roleAtLeast(r, role);
};

/**
 * Organization-level rules. Keys that GitBook reports in `Organization.permissions`
 * come first; the rest are actions only routes ask about.
 */
export const organizationRules = {
  view: (a) => a.member !== null || a.actor.kind === 'installation',
  admin: isAdmin,
  ownTeam: isAdmin,
  createContent: atLeast('create'),
  createOpenAPISpec: atLeast('create'),
  ingestConversations: (a) => a.actor.kind === 'installation' || isAdmin(a),
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
  ping: (a) => a.member !== null,
} satisfies Rules<OrgAccess>;

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
