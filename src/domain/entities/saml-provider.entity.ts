import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { RoleOrGuest } from '../shared/roles.ts';
import { Organization } from './organization.entity.ts';
import { Team } from './team.entity.ts';

export const SamlProviderSchema = defineEntity({
  name: 'SamlProvider',
  tableName: 'saml_providers',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    label: p.string().length(30),
    ssoURL: p.string().length(2048),
    entityID: p.string().length(1024),
    certificate: p.text(),
    defaultTeam: () => p.manyToOne(Team).nullable().deleteRule('set null'),
    defaultRole: p.string().length(16).$type<RoleOrGuest>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class SamlProvider extends SamlProviderSchema.class {}
SamlProviderSchema.setClass(SamlProvider);
