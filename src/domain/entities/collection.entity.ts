import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { DefaultLevel } from '../shared/roles.ts';
import { Organization } from './organization.entity.ts';

/** A folder of spaces and collections. Sub-collections go with their parent (cascade). */
export const CollectionSchema = defineEntity({
  name: 'Collection',
  tableName: 'collections',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    parent: () => p.manyToOne(CollectionSchema).ref().nullable().deleteRule('cascade'),
    title: p.string().length(50),
    description: p.string().length(100).nullable(),
    /** Role every member gets here, `inherit` (from the parent), or null (explicit grants only). */
    defaultLevel: p.string().length(16).$type<DefaultLevel>().nullable().default('inherit'),
    /** Fractional order key among siblings; byte order ("C") so keys compare as generated. */
    position: p.string().length(128).collation('C'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'parent', 'position', 'id'] }, { properties: ['organization', 'position', 'id'] }],
});

export class Collection extends CollectionSchema.class {}
CollectionSchema.setClass(Collection);
