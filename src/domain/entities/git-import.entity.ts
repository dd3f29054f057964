import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Space } from './space.entity.ts';

export type ImportStatus = 'pending' | 'running' | 'completed' | 'failed';

/**
 * One requested Git import. The URL may carry credentials until the import ends, when it
 * is replaced by the URL without them; the job payload carries only this row's id.
 */
export const GitImportSchema = defineEntity({
  name: 'GitImport',
  tableName: 'git_imports',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    space: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    url: p.string().length(2048),
    ref: p.string().length(255),
    projectDirectory: p.string().length(1024).nullable(),
    standalone: p.boolean().default(false),
    status: p.string().length(16).$type<ImportStatus>().default('pending'),
    error: p.string().length(2000).nullable(),
    revision: p.string().length(20).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['space', 'createdAt'] }],
});

export class GitImport extends GitImportSchema.class {}
GitImportSchema.setClass(GitImport);
