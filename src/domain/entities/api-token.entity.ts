import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { IntegrationInstallation } from './integration-installation.entity.ts';
import { User } from './user.entity.ts';

export type TokenKind = 'user' | 'installation';

/** Bearer tokens, stored only as a SHA-256 hash: a database leak does not leak credentials. */
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    tokenHash: p.string().length(64).unique(),
    kind: p.string().length(16).$type<TokenKind>(),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    installation: () => p.manyToOne(IntegrationInstallation).nullable().deleteRule('cascade'),
    label: p.string().length(50).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['user'] }, { properties: ['installation'] }],
});

export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken);
