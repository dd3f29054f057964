import { Member } from '../../domain/entities/member.entity.ts';
import { User } from '../../domain/entities/user.entity.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { presentUser, UserSchema } from './user.presenter.ts';

const tags = ['users'];

export const usersRoutes = [
  defineRoute({
    method: 'get',
    path: '/user',
    operationId: 'getAuthenticatedUser',
    summary: 'The user the token belongs to',
    tags,
    responses: { 200: { description: 'The caller', schema: UserSchema } },
    async handle({ actor, deps }) {
      return { status: 200, body: presentUser(actor.user, deps.urls) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/users/{userId}',
    operationId: 'getUserById',
    summary: 'A user who shares an organization with the caller',
    tags,
    params: z.object({ userId: Id }),
    responses: { 200: { description: 'The user', schema: UserSchema } },
    async handle({ actor, em, params, deps }) {
      if (params.userId === actor.user.id) return { status: 200, body: presentUser(actor.user, deps.urls) };
      // Visible only through a shared organization, so ids reveal nothing about strangers.
      const mine = await em.find(Member, { user: actor.user, disabled: false }, { fields: ['organization'] });
      const shared = await em.count(Member, {
        user: params.userId,
        organization: { $in: mine.map((m) => m.organization.id) },
      });
      const user = shared > 0 ? await em.findOne(User, { id: params.userId }) : null;
      if (!user) throw notFound('User');
      return { status: 200, body: presentUser(user, deps.urls) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/',
    operationId: 'getApiInformation',
    summary: 'API version and build',
    tags: ['api'],
    auth: 'any',
    responses: { 200: { description: 'Version', schema: z.object({ version: z.string(), build: z.string() }) } },
    async handle() {
      return { status: 200, body: { version: '1', build: process.env.VELLUM_BUILD ?? 'dev' } };
    },
  }),
];
