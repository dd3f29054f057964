import type { Profile } from '@node-saml/node-saml';
import type { EntityManager } from '@mikro-orm/postgresql';
import { issueUserToken } from '../auth/tokens.ts';
import { Member } from '../entities/member.entity.ts';
import type { SamlProvider } from '../entities/saml-provider.entity.ts';
import { TeamMembership } from '../entities/team-membership.entity.ts';
import { User } from '../entities/user.entity.ts';
import { newId } from '../shared/ids.ts';
import { ForbiddenError, UnauthorizedError } from '../shared/errors.ts';
import { normalizeEmail } from '../organizations/users.ts';

const EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type SamlSignIn = { user: User; member: Member; token: string };

/**
 * Signs in the subject an identity provider vouched for: the account for its e-mail
 * address (created when new), a membership of the provider's organization with the
 * provider's default role and team (just-in-time provisioning), marked `sso`, and a
 * fresh API token. Safe under concurrent logins of one person: rows are inserted
 * "if absent" and then read.
 */
export async function signInWithSaml(em: EntityManager, provider: SamlProvider, profile: Profile): Promise<SamlSignIn> {
  const email = emailOf(profile);
  return em.transactional(async (tx) => {
    await tx.createQueryBuilder(User).insert({ id: newId(), email, displayName: email.slice(0, email.indexOf('@')), createdAt: new Date() }).onConflict('email').ignore().execute();
    const user = await tx.findOneOrFail(User, { email });
    const organization = provider.organization;
    await tx
      .createQueryBuilder(Member)
      .insert({ id: newId(), organization: organization.id, user: user.id, role: provider.defaultRole ?? null, sso: true, disabled: false, joinedAt: new Date() })
      .onConflict(['organization', 'user'])
      .ignore()
      .execute();
    const member = await tx.findOneOrFail(Member, { organization, user });
    if (member.disabled) throw new ForbiddenError('This membership is disabled');
    member.sso = true;
    if (provider.defaultTeam) {
      await tx
        .createQueryBuilder(TeamMembership)
        .insert({ id: newId(), team: provider.defaultTeam.id, member: member.id, role: 'member', createdAt: new Date() })
        .onConflict(['team', 'member'])
        .ignore()
        .execute();
    }
    const token = issueUserToken(tx, user, `saml:${provider.id}`);
    await tx.flush();
    return { user, member, token };
  });
}

/** The e-mail address the assertion names: a known attribute, else an e-mail-format NameID. */
function emailOf(profile: Profile): string {
  for (const name of EMAIL_ATTRIBUTES) {
    const value = profile[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && EMAIL.test(first.trim())) return normalizeEmail(first);
  }
  if (EMAIL.test(profile.nameID?.trim() ?? '')) return normalizeEmail(profile.nameID);
  throw new UnauthorizedError('The identity provider named no e-mail address for this person');
}
