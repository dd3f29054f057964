import type { EntityManager } from '@mikro-orm/postgresql';
import { issueInstallationToken, issueUserToken } from '../domain/auth/tokens.ts';
import { IntegrationInstallation } from '../domain/entities/integration-installation.entity.ts';
import { Member } from '../domain/entities/member.entity.ts';
import { Organization } from '../domain/entities/organization.entity.ts';
import { User } from '../domain/entities/user.entity.ts';
import { createOrganization } from '../domain/organizations/create-organization.ts';
import { createUser, findUserByIdOrEmail } from '../domain/organizations/users.ts';
import { notFound } from '../domain/shared/errors.ts';
import { ROLES, type RoleOrGuest } from '../domain/shared/roles.ts';
import { UsageError } from './cli-error.ts';

type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`missing --${name}`);
  return value.trim();
}

function parseRole(value: string): RoleOrGuest {
  if (value === 'guest') return null;
  if ((ROLES as readonly string[]).includes(value)) return value as RoleOrGuest;
  throw new UsageError(`--role must be one of ${ROLES.join(', ')}, guest`);
}

async function organizationById(em: EntityManager, id: string) {
  const org = await em.findOne(Organization, { id });
  if (!org) throw notFound(`Organization ${id}`);
  return org;
}

/** The admin commands of `bin/vellum`; each returns the JSON object it prints. */
export const adminCommands: Record<string, (em: EntityManager, flags: Flags) => Promise<Record<string, unknown>>> = {
  async 'users create'(em, flags) {
    const name = typeof flags.name === 'string' ? flags.name : undefined;
    const user = await createUser(em, { email: required(flags, 'email'), ...(name ? { displayName: name } : {}) });
    const token = issueUserToken(em, user, 'cli');
    await em.flush();
    return { id: user.id, email: user.email, token };
  },
  async 'orgs create'(em, flags) {
    const owner = await findUserByIdOrEmail(em, required(flags, 'owner'));
    const org = await createOrganization(em, { title: required(flags, 'title'), owner });
    return { id: org.id, title: org.title };
  },
  async 'members add'(em, flags) {
    const org = await organizationById(em, required(flags, 'org'));
    const user = await findUserByIdOrEmail(em, required(flags, 'user'));
    const role = parseRole(required(flags, 'role'));
    const member = (await em.findOne(Member, { organization: org, user })) ?? em.create(Member, { organization: org, user, role });
    member.role = role;
    await em.flush();
    return { organization: org.id, user: user.id, role };
  },
  async 'tokens create'(em, flags) {
    const user = await findUserByIdOrEmail(em, required(flags, 'user'));
    const token = issueUserToken(em, user, 'cli');
    await em.flush();
    return { token };
  },
  async 'integrations install'(em, flags) {
    const org = await organizationById(em, required(flags, 'org'));
    const installation = em.create(IntegrationInstallation, { organization: org, integration: required(flags, 'name') });
    const token = issueInstallationToken(em, installation);
    await em.flush();
    return { installationId: installation.id, token };
  },
  /** Idempotent: reuses the demo user and organization, and issues a fresh token each run. */
  async demo(em) {
    const email = 'demo@vellum.local';
    const user = (await em.findOne(User, { email })) ?? (await createUser(em, { email, displayName: 'Demo User' }));
    const membership = await em.findOne(Member, { user, role: 'admin' }, { populate: ['organization'] });
    const org = membership?.organization.getEntity() ?? (await createOrganization(em, { title: 'Demo organization', owner: user }));
    const token = issueUserToken(em, user, 'demo');
    await em.flush();
    return { organizationId: org.id, userId: user.id, email, token };
  },
};
