import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';

/** A term of the organization's translation glossary: its rendering per language code. */
export const GlossaryEntrySchema = defineEntity({
  name: 'GlossaryEntry',
  tableName: 'translation_glossary_entries',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    translations: p.json<Record<string, string>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class GlossaryEntry extends GlossaryEntrySchema.class {}
GlossaryEntrySchema.setClass(GlossaryEntry);
