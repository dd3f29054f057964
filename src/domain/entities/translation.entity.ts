import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Organization } from './organization.entity.ts';
import { Space } from './space.entity.ts';

/** The spec's values only: a failed run returns to the status before it (see `lastRun`). */
export type TranslationStatus = 'pending' | 'running' | 'completed';

/** The latest run's outcome, beyond GitBook: a failure is recorded here, never as a status. */
export type TranslationLastRun = {
  run: string;
  outcome: 'completed' | 'failed';
  startedAt: string;
  finishedAt: string;
  error: { code: string; message: string } | null;
};

/**
 * A translation of a space into another language. The result space is created by the
 * first run and written by every run; deleting the translation leaves it alone (set null
 * the other way: deleting the result space keeps the translation, the next run makes a new one).
 */
export const TranslationSchema = defineEntity({
  name: 'Translation',
  tableName: 'translations',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    organization: () => p.manyToOne(Organization).ref().deleteRule('cascade'),
    sourceSpace: () => p.manyToOne(Space).ref().deleteRule('cascade'),
    sourceLanguage: p.string().length(8),
    language: p.string().length(8),
    /** Rich-text document (JSONDocument), given to the provider as plain text. */
    instructions: p.json<Record<string, unknown>>(),
    status: p.string().length(16).$type<TranslationStatus>().default('pending'),
    resultSpace: () => p.manyToOne(Space).ref().nullable().deleteRule('set null'),
    resultRevision: p.string().length(20).nullable(),
    /** stats: counters over completed runs; durations in whole seconds. */
    runs: p.integer().default(0),
    totalWords: p.integer().default(0),
    totalPages: p.integer().default(0),
    totalDuration: p.integer().default(0),
    latestRunDuration: p.integer().default(0),
    latestPages: p.integer().default(0),
    latestWords: p.integer().default(0),
    lastRun: p.json<TranslationLastRun>().nullable(),
    /** A run was asked for while one was queued or running: one follow-up run, however many asks. */
    followUp: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});

export class Translation extends TranslationSchema.class {}
TranslationSchema.setClass(Translation);
