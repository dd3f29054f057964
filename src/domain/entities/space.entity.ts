import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import type { DefaultLevel } from '../shared/roles.ts';
import { Collection } from './collection.entity.ts';
import { Organization } from './organization.entity.ts';

export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];
export type SpaceMergeRules = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: unknown[] };

export const SpaceSchema = defineEntity({
  name: 'Space',
  tableName: 'spaces',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    /** When its collection is deleted the space (already in the bin) falls back to the root. */
    parent: () => p.manyToOne(Collection).ref().nullable().deleteRule('set null'),
    title: p.string().length(50),
    emoji: p.string().length(50).nullable(),
    iconURL: p.string().length(2048).nullable(),
    visibility: p.string().length(16).$type<SpaceVisibility>().default('private'),
    editMode: p.string().length(8).$type<'live' | 'locked'>().default('live'),
    defaultLevel: p.string().length(16).$type<DefaultLevel>().nullable().default('inherit'),
    mergeRules: p.json<SpaceMergeRules>().onCreate(() => ({ type: 'inherit' as const })),
    language: p.string().length(8).nullable(),
    position: p.string().length(128).collation('C'),
    /** The revision that is the space's current content. */
    revision: p.string().length(20),
    /** The last change-request number given out in this space (numbers are never reused). */
    changeRequestSeq: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    /** Set while the space is in the bin; purged once older than the retention window. */
    deletedAt: p.datetime().nullable(),
  },
  indexes: [
    { properties: ['organization', 'parent', 'position', 'id'] },
    { properties: ['organization', 'position', 'id'] },
    { properties: ['deletedAt'] },
  ],
});

export class Space extends SpaceSchema.class {}
SpaceSchema.setClass(Space);
