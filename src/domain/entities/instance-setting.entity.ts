import { defineEntity, p } from '@mikro-orm/core';

/** Values an installation makes once and every process shares (e.g. the URL-signing key). */
export const InstanceSettingSchema = defineEntity({
  name: 'InstanceSetting',
  tableName: 'instance_settings',
  properties: {
    key: p.string().length(64).primary(),
    value: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class InstanceSetting extends InstanceSettingSchema.class {}
InstanceSettingSchema.setClass(InstanceSetting);
