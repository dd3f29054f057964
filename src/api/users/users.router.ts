import { userResource, userRules } from '../../domain/organizations/user.policy.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { presentUser, UserWire } from './user.presenter.ts';

const tags = ['users'];

export const usersRoutes = [
  defineRoute({
    method: 'get',
    path: '/user',
    operationId: 'getAuthenticatedUser',
    summary: 'The user the token belongs to',
    tags,
    responses: { 200: { description: 'The caller', schema: UserWire } },
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
    // Visible only through a shared organization, so ids reveal nothing about strangers.
    load: userResource,
    authorize: { rules: userRules, action: 'view' },
    responses: { 200: { description: 'The user', schema: UserWire } },
    async handle({ deps, subject: { user } }) {
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
