import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

export const TeamSchema = defineEntity({
  name: 'Team',
  tableName: 'teams',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    title: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class Team extends TeamSchema.class {}
TeamSchema.setClass(Team);
