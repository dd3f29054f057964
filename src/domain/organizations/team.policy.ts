import type { Rules } from '../policy/authorize.ts';
import type { OrgAccess } from './org-access.ts';
import { organizationRules } from './organization.policy.ts';

/** A team as seen by a caller: their organization access and whether they own the team. */
export type TeamAccess = { org: OrgAccess; isOwner: boolean };

export const teamRules = {
  view: (t) => organizationRules.listTeams(t.org),
  admin: (t) => organizationRules.admin(t.org) || t.isOwner,
} satisfies Rules<TeamAccess>;

export const TEAM_PERMISSION_KEYS = ['admin', 'view'] as const;
