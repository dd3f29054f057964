import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Member } from '../entities/member.entity.ts';
import { Organization } from '../entities/organization.entity.ts';
import { SamlProvider } from '../entities/saml-provider.entity.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';
import type { Role, RoleOrGuest } from '../shared/roles.ts';
import type { OrgView } from './org-view.ts';

export type MemberFilters = {
  role?: Role | 'guest';
  search?: string;
  sort: 'joinedAt' | 'lastSeenAt';
  order: 'asc' | 'desc';
};

export async function listMembers(em: EntityManager, organization: Organization, filters: MemberFilters, page: PageRequest) {
  const where: Record<string, unknown> = { organization, disabled: false };
  if (filters.role) where.role = filters.role === 'guest' ? null : filters.role;
  // Sorting by last-seen lists only members who have been seen at all ("active").
  if (filters.sort === 'lastSeenAt') where.lastSeenAt = { $ne: null };
  if (filters.search) {
    const like = `%${escapeLike(filters.search)}%`;
    where.user = { $or: [{ displayName: { $ilike: like } }, { email: { $ilike: like } }] };
  }
  return findPage(em, Member, where, byTime(filters.sort, filters.order), page, { populate: ['user'] });
}

export async function getMember(em: EntityManager, organization: Organization, userId: string): Promise<Member> {
  const member = await em.findOne(Member, { organization, user: userId, disabled: false }, { populate: ['user'] });
  if (!member) throw notFound('Member');
  return member;
}

/** Changes a role; the last admin keeps theirs so an organization is never left unmanageable. */
export async function updateMemberRole(em: EntityManager, organization: Organization, userId: string, role: RoleOrGuest) {
  return em.transactional(async (tx) => {
    await lockOrganization(tx, organization.id);
    const member = await getMember(tx, organization, userId);
    if (member.role === 'admin' && role !== 'admin') await assertAnotherAdmin(tx, organization.id, member.id);
    member.role = role;
    return member;
  });
}

/** Removes a member (or lets a member leave). Returns false when there was nobody to remove. */
export async function removeMember(em: EntityManager, organization: Organization, userId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    await lockOrganization(tx, organization.id);
    const member = await tx.findOne(Member, { organization: organization.id, user: userId });
    if (!member) return false;
    if (member.role === 'admin') await assertAnotherAdmin(tx, organization.id, member.id);
    tx.remove(member);
    return true;
  });
}

export async function recordPing(em: EntityManager, access: OrgView) {
  if (!access.member) return;
  await em.nativeUpdate(Member, { id: access.member.id }, { lastSeenAt: new Date() });
}

/** Marks a member as signing in through the organization's SAML provider. */
export async function setSsoMember(em: EntityManager, organization: Organization, userId: string): Promise<Member> {
  const member = await getMember(em, organization, userId);
  const providers = await em.count(SamlProvider, { organization });
  if (providers === 0) throw new BadRequestError('The organization has no SAML provider configured');
  member.sso = true;
  await em.flush();
  return member;
}

/**
 * Serializes role changes within one organization: two admins demoting each other at the
 * same instant would otherwise both see "another admin remains".
 */
async function lockOrganization(em: EntityManager, organizationId: string) {
  await em.findOneOrFail(Organization, { id: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

async function assertAnotherAdmin(em: EntityManager, organizationId: string, exceptMemberId: string) {
  const others = await em.count(Member, {
    organization: organizationId,
    role: 'admin',
    disabled: false,
    id: { $ne: exceptMemberId },
  });
  if (others === 0) throw new BadRequestError('The last admin of an organization cannot be demoted or removed');
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
