import type { EntityManager } from '@mikro-orm/postgresql';
import type { Collection } from '../entities/collection.entity.ts';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import { Member } from '../entities/member.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { Team } from '../entities/team.entity.ts';
import { BadRequestError } from '../shared/errors.ts';
import type { Role } from '../shared/roles.ts';

export type GrantRequest = { role: Role | null; users?: string[]; teams?: string[] };

/**
 * Gives users and teams of the organization a role on a space or collection (and what it
 * holds); a null role removes their grant. Unknown users or teams are a 400 and change nothing.
 */
export async function grantAccess(em: EntityManager, target: { space: Space } | { collection: Collection }, request: GrantRequest) {
  const item = 'space' in target ? target.space : target.collection;
  const organization = item.organization.id;
  const users = [...new Set(request.users ?? [])];
  const teams = [...new Set(request.teams ?? [])];
  const members = users.length ? await em.find(Member, { organization, user: { $in: users }, disabled: false }) : [];
  const missingUsers = users.filter((u) => !members.some((m) => m.user.id === u));
  if (missingUsers.length) throw new BadRequestError(`users: not members of this organization: ${missingUsers.join(', ')}`);
  const foundTeams = teams.length ? await em.find(Team, { organization, id: { $in: teams } }) : [];
  const missingTeams = teams.filter((t) => !foundTeams.some((f) => f.id === t));
  if (missingTeams.length) throw new BadRequestError(`teams: no such teams in this organization: ${missingTeams.join(', ')}`);

  const on = 'space' in target ? { space: target.space.id } : { collection: target.collection.id };
  await em.transactional(async (tx) => {
    const grantees = [...users.map((user) => ({ user })), ...teams.map((team) => ({ team }))];
    for (const grantee of grantees) {
      await tx.nativeDelete(ContentPermission, { ...on, ...grantee });
      if (request.role !== null) tx.create(ContentPermission, { organization, ...on, ...grantee, role: request.role });
    }
  });
}
