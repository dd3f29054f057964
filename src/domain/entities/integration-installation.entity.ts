import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

/** An integration installed in one organization; its tokens act for the integration, not a user. */
export const IntegrationInstallationSchema = defineEntity({
  name: 'IntegrationInstallation',
  tableName: 'integration_installations',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    integration: p.string().length(100),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization'] }],
});

export class IntegrationInstallation extends IntegrationInstallationSchema.class {}
IntegrationInstallationSchema.setClass(IntegrationInstallation);
