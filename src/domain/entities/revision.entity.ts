import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Space } from './space.entity.ts';

export type RevisionType = 'edits' | 'merge' | 'rollback' | 'update' | 'computed';
export type RevisionGit = { oid: string; message: string; url?: string; ref?: string; createdByGitBook: boolean };

/**
 * An immutable snapshot of a space's content. Duplicating a space adds a revision whose
 * parent is the original's, sharing its content rather than copying it.
 */
export const RevisionSchema = defineEntity({
  name: 'Revision',
  tableName: 'revisions',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    space: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    parents: p.array().default([]),
    type: p.string().length(16).$type<RevisionType>().default('edits'),
    /** Hashes of the top-level page nodes, in order. */
    pages: p.array().default([]),
    /** Hashes of the file entries. */
    files: p.array().default([]),
    variables: p.json<Record<string, string | number | boolean>>().defaultRaw("'{}'").onCreate(() => ({})),
    git: p.json<RevisionGit>().nullable(),
    /** Set on the revisions of a change request's chain; null on main's. */
    changeRequest: p.string().length(20).nullable(),
    /** On a `merge` revision of main: the change request merged. */
    mergedFrom: p.string().length(20).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['space', 'createdAt'] }],
});

export class Revision extends RevisionSchema.class {}
RevisionSchema.setClass(Revision);
