import type { EntityManager } from '@mikro-orm/postgresql';
import type { Member } from '../../domain/entities/member.entity.ts';
import { teamCountsByMember } from '../../domain/organizations/counts.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import { presentUser } from '../users/user.presenter.ts';
import type { MemberSchema } from './members.schema.ts';

type MemberBody = z.infer<typeof MemberSchema>;

/** Members' `teams` counts come from one grouped query per page. */
export async function presentMembers(em: EntityManager, members: Member[], urls: Urls): Promise<MemberBody[]> {
  const teams = await teamCountsByMember(em, members.map((m) => m.id));
  return members.map((m) => presentMember(m, teams.get(m.id) ?? 0, urls));
}

export async function presentOneMember(em: EntityManager, member: Member, urls: Urls): Promise<MemberBody> {
  const [body] = await presentMembers(em, [member], urls);
  return body!;
}

function presentMember(m: Member, teams: number, urls: Urls): MemberBody {
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
    // Spaces shared with the member directly; spaces and their permissions are not built yet.
    spaces: 0,
    teams,
  };
}
