import type { EntityManager } from '@mikro-orm/postgresql';
import { Member } from '../entities/member.entity.ts';
import type { DefaultContent, OrgMergeRules, Organization } from '../entities/organization.entity.ts';
import { BadRequestError } from '../shared/errors.ts';
import type { RoleOrGuest } from '../shared/roles.ts';

export type OrganizationPatch = {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: RoleOrGuest;
  defaultContent?: DefaultContent | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: OrgMergeRules;
};

/** Applies a PATCH; everything is checked before anything is changed. */
export async function updateOrganization(em: EntityManager, organization: Organization, patch: OrganizationPatch) {
  if (patch.defaultContent) await assertDefaultContent(em, organization, patch.defaultContent);
  if (patch.mergeRules) await assertReviewersAreMembers(em, organization, patch.mergeRules);

  if (patch.title !== undefined) organization.title = patch.title;
  if (patch.emailDomains !== undefined) organization.emailDomains = [...new Set(patch.emailDomains.map((d) => d.toLowerCase()))];
  if (patch.hostname !== undefined) organization.hostname = patch.hostname;
  if (patch.defaultRole !== undefined) organization.defaultRole = patch.defaultRole;
  if (patch.defaultContent !== undefined) organization.defaultContent = patch.defaultContent;
  if (patch.logo !== undefined) organization.logoURL = patch.logo;
  if (patch.sso !== undefined) organization.sso = patch.sso;
  if (patch.ai !== undefined) organization.ai = patch.ai;
  if (patch.inviteLinks !== undefined) organization.inviteLinks = patch.inviteLinks;
  if (patch.mergeRules !== undefined) organization.mergeRules = patch.mergeRules;
  await em.flush();
}

/**
 * Default content must be a site of this organization. Sites arrive with the sites family
 * (not built yet), so no organization has one and every value is refused as invalid.
 */
async function assertDefaultContent(_em: EntityManager, _organization: Organization, content: DefaultContent) {
  throw new BadRequestError(`defaultContent.site: no site "${content.site}" in this organization`);
}

async function assertReviewersAreMembers(em: EntityManager, organization: Organization, rules: OrgMergeRules) {
  if (rules.type !== 'rules') return;
  const userIds = [...new Set(rules.rules.flatMap((r) => ('users' in r ? r.users : [])))];
  if (userIds.length === 0) return;
  const members = await em.find(Member, { organization, user: { $in: userIds } }, { fields: ['user'] });
  const known = new Set(members.map((m) => m.user.id));
  const unknown = userIds.filter((id) => !known.has(id));
  if (unknown.length) throw new BadRequestError(`mergeRules.rules: users are not members: ${unknown.join(', ')}`);
}
