import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.entity.ts';

export type RichTextDocument = { object: 'document'; data: Record<string, unknown>; nodes: unknown[] };

/** At most one per organization: the organization id is the key. */
export const AgentInstructionsSchema = defineEntity({
  name: 'AgentInstructions',
  tableName: 'agent_instructions',
  properties: {
    organization: () => p.oneToOne(Organization).primary().ref().deleteRule('cascade'),
    instructions: p.json<RichTextDocument>(),
    updatedBy: p.string().length(20),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class AgentInstructions extends AgentInstructionsSchema.class {}
AgentInstructionsSchema.setClass(AgentInstructions);
