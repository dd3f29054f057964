import type { EntityManager } from '@mikro-orm/postgresql';
import { emailDomainOf, type User } from '../entities/user.entity.ts';
import { InviteLink } from '../entities/invite-link.entity.ts';
import { Member } from '../entities/member.entity.ts';
import { Organization } from '../entities/organization.entity.ts';
import { ForbiddenError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';
import type { RoleOrGuest } from '../shared/roles.ts';
import { findOrCreateUserByEmail } from './users.ts';

export async function createInviteLink(em: EntityManager, organization: Organization, role: RoleOrGuest, createdBy: User) {
  const invite = em.create(InviteLink, { organization, role, createdBy });
  await em.flush();
  return invite;
}

export async function listInviteLinks(em: EntityManager, organization: Organization, page: PageRequest) {
  return findPage(
    em,
    InviteLink,
    { organization },
    byTime('createdAt', 'desc'),
    page,
  );
}

export async function getInviteLink(em: EntityManager, organization: Organization, inviteId: string) {
  const invite = await em.findOne(InviteLink, { id: inviteId, organization });
  if (!invite) throw notFound('Invite');
  return invite;
}

export async function deleteInviteLink(em: EntityManager, organization: Organization, inviteId: string): Promise<boolean> {
  return (await em.nativeDelete(InviteLink, { id: inviteId, organization })) > 0;
}

/**
 * Joins through an invite link. Holding the link's id is the credential, so the
 * organization is looked up here rather than through the caller's membership.
 */
export async function joinWithInvite(em: EntityManager, organizationId: string, inviteId: string, user: User) {
  const invite = await em.findOne(InviteLink, { id: inviteId, organization: organizationId }, { populate: ['organization'] });
  if (!invite) throw notFound('Invite');
  const organization = invite.organization.getEntity();
  if (!organization.inviteLinks) throw new ForbiddenError('Invite links are disabled for this organization');
  const existing = await em.findOne(Member, { organization, user });
  if (existing) return existing;
  const member = em.create(Member, { organization, user, role: invite.role });
  await em.flush();
  return member;
}

/** Joins through the e-mail domain: allowed only for addresses in `emailDomains`, with `defaultRole`. */
export async function joinByEmailDomain(em: EntityManager, organizationId: string, user: User) {
  const organization = await em.findOne(Organization, { id: organizationId });
  if (!organization) throw notFound('Organization');
  const existing = await em.findOne(Member, { organization, user });
  if (existing) return existing;
  const domain = emailDomainOf(user);
  // To an outsider an organization they may not join does not exist: the same 404 as an
  // unknown id, so ids cannot be probed (nor allowed domains learned).
  if (!organization.emailDomains.includes(domain)) throw notFound('Organization');
  const member = em.create(Member, { organization, user, role: organization.defaultRole });
  await em.flush();
  return member;
}

export type EmailInvite = string | { email: string; role: RoleOrGuest };

/**
 * Invites people by address: accounts are created for unknown addresses, and everyone not
 * already a member is added with their own role, else the request's, else the default role.
 */
export async function inviteUsers(
  em: EntityManager,
  organization: Organization,
  input: { emails: EmailInvite[]; role?: RoleOrGuest; sso?: boolean },
) {
  return em.transactional(async (tx) => {
    const added: string[] = [];
    for (const entry of input.emails) {
      const email = typeof entry === 'string' ? entry : entry.email;
      const role = typeof entry === 'string' ? input.role : entry.role;
      const { user, created } = await findOrCreateUserByEmail(tx, email);
      if (added.includes(user.id)) continue;
      if (!created && (await tx.findOne(Member, { organization, user }))) continue;
      tx.create(Member, {
        organization,
        user,
        role: role === undefined ? organization.defaultRole : role,
        sso: input.sso ?? false,
      });
      added.push(user.id);
    }
    return { users: added, invited: added.length };
  });
}
