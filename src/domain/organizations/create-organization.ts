import type { EntityManager } from '@mikro-orm/postgresql';
import { Member } from '../entities/member.entity.ts';
import { Organization } from '../entities/organization.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { BadRequestError } from '../shared/errors.ts';

/** Creates an organization with `owner` as its first admin. The public API has no such operation (admin CLI only). */
export async function createOrganization(em: EntityManager, input: { title: string; owner: User }): Promise<Organization> {
  const title = input.title.trim();
  if (title.length < 2 || title.length > 255) throw new BadRequestError('title: must be 2 to 255 characters');
  const organization = em.create(Organization, { title, defaultRole: 'read' });
  em.create(Member, { organization, user: input.owner, role: 'admin' });
  await em.flush();
  return organization;
}
