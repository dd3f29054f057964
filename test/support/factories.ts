import type { EntityManager } from '@mikro-orm/postgresql';
import { readFileSync } from 'node:fs';
import { issueInstallationToken, issueUserToken } from '../../src/domain/auth/tokens.ts';
import { IntegrationInstallation } from '../../src/domain/entities/integration-installation.entity.ts';
import { Member } from '../../src/domain/entities/member.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { TeamMembership, type TeamRole } from '../../src/domain/entities/team-membership.entity.ts';
import { Team } from '../../src/domain/entities/team.entity.ts';
import type { User } from '../../src/domain/entities/user.entity.ts';
import { createOrganization } from '../../src/domain/organizations/create-organization.ts';
import { createUser } from '../../src/domain/organizations/users.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { RoleOrGuest } from '../../src/domain/shared/roles.ts';
import { createCollection } from '../../src/domain/content/collections.ts';
import { ContentRoles } from '../../src/domain/content/content-roles.ts';
import { createSpace } from '../../src/domain/content/spaces.ts';
import { commitOnCurrent } from '../../src/domain/content/commit-revision.ts';
import { storeFiles, type FileSpec } from '../../src/domain/content/files.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import type { BlobStore } from '../../src/domain/storage/blob-store.ts';
import type { Collection } from '../../src/domain/entities/collection.entity.ts';
import { loadOrgView } from '../../src/domain/organizations/org-view.ts';
import { commitOnChangeRequest } from '../../src/domain/change-requests/commit-change-request.ts';
import { openChangeRequest, type OpenChangeRequestInput } from '../../src/domain/change-requests/open-change-request.ts';
import type { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';

export const TEST_CERTIFICATE = readFileSync(new URL('../fixtures/idp-cert.pem', import.meta.url), 'utf8');

export type Caller = { user: User; token: string };

/** A user with a token; e-mail addresses are unique per call so files never collide. */
export async function buildUser(em: EntityManager, overrides: { email?: string; displayName?: string } = {}): Promise<Caller> {
  const user = await createUser(em, {
    email: overrides.email ?? `user-${newId().toLowerCase()}@example.test`,
    displayName: overrides.displayName ?? `User ${newId().slice(0, 6)}`,
  });
  const token = issueUserToken(em, user);
  await em.flush();
  return { user, token };
}

/** An organization with an admin owner (created when not given). */
export async function buildOrg(em: EntityManager, overrides: { owner?: Caller; title?: string } = {}) {
  const owner = overrides.owner ?? (await buildUser(em));
  const org = await createOrganization(em, { title: overrides.title ?? `Org ${newId().slice(0, 8)}`, owner: owner.user });
  return { org, owner };
}

/** A new user who is a member of `org` with `role` (null: a guest). */
export async function buildMember(em: EntityManager, org: Organization, role: RoleOrGuest, overrides: { email?: string; displayName?: string } = {}) {
  const caller = await buildUser(em, overrides);
  em.create(Member, { organization: org, user: caller.user, role });
  await em.flush();
  return caller;
}

export async function buildTeam(em: EntityManager, org: Organization, members: Array<{ user: User; role?: TeamRole }> = []) {
  const team = em.create(Team, { organization: org, title: `Team ${newId().slice(0, 6)}` });
  for (const m of members) {
    const member = await em.findOneOrFail(Member, { organization: org, user: m.user });
    em.create(TeamMembership, { team, member, role: m.role ?? 'member' });
  }
  await em.flush();
  return team;
}

export async function buildInstallation(em: EntityManager, org: Organization) {
  const installation = em.create(IntegrationInstallation, { organization: org, integration: 'test-integration' });
  const token = issueInstallationToken(em, installation);
  await em.flush();
  return { installation, token };
}

/** A space made through the domain, as the API would (first revision, position last). */
export async function buildSpace(em: EntityManager, org: Organization, owner: Caller, overrides: { parent?: Collection | null; title?: string } = {}) {
  const access = await accessFor(em, org, owner);
  return createSpace(em, access, { title: overrides.title ?? `Space ${newId().slice(0, 6)}`, parent: overrides.parent ?? null });
}

export async function buildCollection(em: EntityManager, org: Organization, owner: Caller, overrides: { parent?: Collection | null; title?: string } = {}) {
  const access = await accessFor(em, org, owner);
  return createCollection(em, access, { title: overrides.title ?? `Collection ${newId().slice(0, 6)}`, parent: overrides.parent ?? null });
}

async function accessFor(em: EntityManager, org: Organization, caller: Caller) {
  return ContentRoles.load(em, await loadOrgView(em, { kind: 'user', user: caller.user }, org.id));
}

/** Commits `pages` (and files) as a space's new current revision, as an import would. */
export async function buildContent(em: EntityManager, space: Space, pages: PageSpec[], files: FileSpec[] = [], blobs?: BlobStore) {
  const fileHashes = files.length ? await storeFiles(em, blobs!, files) : [];
  // Seeded content records no re-index: tests that search run `indexSpace` themselves.
  return commitOnCurrent(em, space, async () => ({ pages, files: fileHashes, variables: { product: 'Vellum' } }), () => undefined);
}

type CastRole = Exclude<RoleOrGuest, null> | 'guest';

/**
 * The cast most API tests need: an organization with its admin, one member per role
 * asked for (`guest` for a member without a role), and an outsider who administers
 * another organization.
 */
export async function buildCast<R extends CastRole>(em: EntityManager, roles: readonly R[]) {
  const { org, owner: admin } = await buildOrg(em);
  const members = {} as Record<R, Caller>;
  for (const role of roles) members[role] = await buildMember(em, org, role === 'guest' ? null : role);
  const outsider = (await buildOrg(em)).owner;
  return { org, admin, members, outsider };
}

/** A change request opened on the space's current content, as the API would (next number). */
export async function buildChangeRequest(
  em: EntityManager,
  space: Space,
  author: Caller,
  input: OpenChangeRequestInput = {},
) {
  return openChangeRequest(em, space, author.user, { subject: `Change ${newId().slice(0, 6)}`, status: 'open', ...input });
}

/** Commits `pages` as a change request's new head (replacing its tree), as an editor would. */
export async function buildChangeRequestContent(em: EntityManager, space: Space, changeRequest: ChangeRequest, author: Caller, pages: PageSpec[]) {
  return commitOnChangeRequest(em, space, changeRequest, async (_tx, head) => ({ pages, files: head.files, variables: head.variables }), {
    contributor: author.user.id,
  });
}
