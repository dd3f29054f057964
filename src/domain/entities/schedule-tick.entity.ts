import { defineEntity, p } from '@mikro-orm/core';

/**
 * The last tick of each schedule that reached its queue, so a tick missed while Redis was
 * unreachable is made up once it answers again (workers/schedule-catch-up.ts).
 */
export const ScheduleTickSchema = defineEntity({
  name: 'ScheduleTick',
  tableName: 'schedule_ticks',
  properties: {
    schedule: p.string().length(100).primary(),
    lastTickAt: p.datetime(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class ScheduleTick extends ScheduleTickSchema.class {}
ScheduleTickSchema.setClass(ScheduleTick);
