import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { ChangeRequest } from './change-request.entity.ts';
import { Organization } from './organization.entity.ts';
import { Space } from './space.entity.ts';
import { User } from './user.entity.ts';

export type ImportRunStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';

/**
 * A content import from a website into a space (GitBook's ContentImportRun): into its
 * current content, or into one of its change requests (`changeRequest`).
 */
export const ImportRunSchema = defineEntity({
  name: 'ImportRun',
  tableName: 'import_runs',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    space: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    /** The change request the pages go into; null: the space's current content. */
    changeRequest: () => p.manyToOne(ChangeRequest).ref().nullable().deleteRule('cascade'),
    /** Who started the run: recorded as a contributor of the change request it imports into. */
    createdBy: () => p.manyToOne(User).ref().nullable().deleteRule('set null'),
    parentPage: p.string().length(20).nullable(),
    sourceUrl: p.string().length(2048),
    status: p.string().length(16).$type<ImportRunStatus>().default('pending'),
    error: p.string().length(2000).nullable(),
    pages: p.json<Array<{ id: string; sourceURL: string }>>().onCreate(() => []),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['organization', 'createdAt'] }],
});

export class ImportRun extends ImportRunSchema.class {}
ImportRunSchema.setClass(ImportRun);
