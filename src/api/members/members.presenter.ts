import type { EntityManager } from '@mikro-orm/postgresql';
import type { Member } from '../../domain/entities/member.entity.ts';
import { spaceCountsByUser, teamCountsByMember } from '../../domain/organizations/counts.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentUser } from '../users/user.presenter.ts';
import type { MemberWire } from './members.schema.ts';

type MemberBody = z.infer<typeof MemberWire>;

/** Members' `teams` counts come from one grouped query per page. */
export async function presentMembers(em: EntityManager, members: Member[], urls: Urls): Promise<MemberBody[]> {
  const [teams, spaces] = await Promise.all([
    teamCountsByMember(em, members.map((m) => m.id)),
    // A page of members is one organization's.
    spaceCountsByUser(em, members[0]?.organization.id ?? '', members.map((m) => m.user.id)),
  ]);
  return members.map((m) => presentMember(m, { teams: teams.get(m.id) ?? 0, spaces: spaces.get(m.user.id) ?? 0 }, urls));
}

export async function presentOneMember(em: EntityManager, member: Member, urls: Urls): Promise<MemberBody> {
  const [body] = await presentMembers(em, [member], urls);
  return body!;
}

function presentMember(m: Member, counts: { teams: number; spaces: number }, urls: Urls): MemberBody {
  return {
    object: 'member',
    // GitBook addresses members by user id, so that is the member's id on the wire.
    id: m.user.id,
    role: m.role ?? null,
    user: presentUser(m.user, urls),
    disabled: m.disabled,
    joinedAt: m.joinedAt.toISOString(),
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt.toISOString() } : {}),
    sso: m.sso,
    // Spaces shared with the member directly (explicit grants).
    spaces: counts.spaces,
    teams: counts.teams,
  };
}
