import { defineEntity, p } from '@mikro-orm/core';
import { ChangeRequest } from './change-request.entity.ts';
import { User } from './user.entity.ts';

/** Who put content into a change request (the `contributor` list filter). */
export const ChangeRequestContributorSchema = defineEntity({
  name: 'ChangeRequestContributor',
  tableName: 'change_request_contributors',
  properties: {
    changeRequest: () => p.manyToOne(ChangeRequest).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).ref().primary(),
    firstContributedAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['user'] }],
});

export class ChangeRequestContributor extends ChangeRequestContributorSchema.class {}
ChangeRequestContributorSchema.setClass(ChangeRequestContributor);
