import type { Actor } from '../auth/actor.ts';
import { Member } from '../entities/member.entity.ts';
import { emailDomainOf, User } from '../entities/user.entity.ts';
import { rule, type Resource, type Rules } from '../policy/authorize.ts';
import { ForbiddenError, notFound } from '../shared/errors.ts';

/** A user as the caller sees them: themselves, or someone they share an organization with. */
export type UserView = { self: boolean; sharesOrganization: boolean };

export const userRules = {
  view: rule<UserView>('the caller, or a user who shares an organization with the caller', (v) => v.self || v.sharesOrganization),
} satisfies Rules<UserView>;

function callerUser(actor: Actor): User {
  if (actor.kind !== 'user') throw new ForbiddenError('This operation requires a user token');
  return actor.user;
}

export type LoadedUser = { user: User; view: UserView };

/** A user the caller may see; strangers are the same 404 as unknown ids, so ids reveal nothing. */
export const userResource: Resource<LoadedUser, UserView, { params: { userId: string } }> = {
  name: 'user',
  async load(em, actor, { params }) {
    const me = callerUser(actor);
    if (params.userId === me.id) return { user: me, view: { self: true, sharesOrganization: true } };
    const mine = await em.find(Member, { user: me, disabled: false }, { fields: ['organization'] });
    const shared = await em.count(Member, { user: params.userId, organization: { $in: mine.map((m) => m.organization.id) } });
    const view = { self: false, sharesOrganization: shared > 0 };
    const user = userRules.view(view) ? await em.findOne(User, { id: params.userId }) : null;
    if (!user) throw notFound('User');
    return { user, view };
  },
  view: (u) => u.view,
};

/** The caller and an e-mail domain they ask about. */
export type EmailDomainView = { user: User; emailDomain: string };

/** GitBook reserves looking up any domain for its staff; Vellum answers a user only about their own. */
export const emailDomainRules = {
  lookUp: rule<EmailDomainView>(
    'the caller’s own e-mail domain',
    (v) => v.emailDomain === emailDomainOf(v.user),
    'You can only look up organizations for your own e-mail domain',
  ),
} satisfies Rules<EmailDomainView>;

export const emailDomainResource: Resource<EmailDomainView, EmailDomainView, { params: { emailDomain: string } }> = {
  name: 'e-mail domain',
  load: async (_em, actor, { params }) => ({ user: callerUser(actor), emailDomain: params.emailDomain.toLowerCase() }),
  view: (v) => v,
};
