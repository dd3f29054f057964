import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { Member } from '../entities/member.entity.ts';
import { Organization } from '../entities/organization.entity.ts';
import { notFound } from '../shared/errors.ts';
import type { RoleOrGuest } from '../shared/roles.ts';

/**
 * Who is looking at an organization, and as what: the subject of the organization rules.
 * Policy subjects are named `XView` (OrgView, TeamView, ContentView); `ContentRoles` is not
 * one but the per-request resolver that gives each content item its ContentView's role.
 */
export type OrgView = {
  actor: Actor;
  organization: Organization;
  /** The caller's membership; null for an integration installation. */
  member: Member | null;
};

export function roleOf(access: OrgView): RoleOrGuest | undefined {
  return access.member ? access.member.role : undefined;
}

/**
 * Loads an organization the caller belongs to. Anyone else gets the same 404 as for an
 * organization that does not exist, so ids of other organizations reveal nothing.
 */
export async function loadOrgView(em: EntityManager, actor: Actor, organizationId: string): Promise<OrgView> {
  if (actor.kind === 'installation') {
    if (actor.organizationId !== organizationId) throw notFound('Organization');
    const organization = await em.findOne(Organization, { id: organizationId });
    if (!organization) throw notFound('Organization');
    return { actor, organization, member: null };
  }
  const member = await em.findOne(
    Member,
    { organization: organizationId, user: actor.user, disabled: false },
    { populate: ['organization'] },
  );
  if (!member) throw notFound('Organization');
  return { actor, organization: member.organization.getEntity(), member };
}
