import type { EntityManager } from '@mikro-orm/postgresql';
import { issueUserToken } from '../../src/domain/auth/tokens.ts';
import { ContentRoles } from '../../src/domain/content/content-roles.ts';
import { createSpace } from '../../src/domain/content/spaces.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';
import { createOrganization } from '../../src/domain/organizations/create-organization.ts';
import { loadOrgView } from '../../src/domain/organizations/org-view.ts';
import { createUser } from '../../src/domain/organizations/users.ts';
import { newId } from '../../src/domain/shared/ids.ts';

/** A fresh organization with an admin (and token) for one benchmark run. */
export async function benchOrg(em: EntityManager) {
  const user = await createUser(em, { email: `bench-${newId().toLowerCase()}@example.test` });
  const token = issueUserToken(em, user);
  const org = await createOrganization(em, { title: `Bench ${newId().slice(0, 6)}`, owner: user });
  const access = await ContentRoles.load(em, await loadOrgView(em, { kind: 'user', user }, org.id));
  return {
    org,
    user,
    token,
    newSpace: (title: string): Promise<Space> => createSpace(em, access, { title }),
  };
}
