import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';
import { Translation } from './translation.entity.ts';

export type TranslationRunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A block the run could not translate safely: it kept its source text. */
export type RejectedSegment = { page: string; segment: number; reason: string };

/** One run of a translation (its history, beyond GitBook: `GET …/translations/{id}/runs`). */
export const TranslationRunSchema = defineEntity({
  name: 'TranslationRun',
  tableName: 'translation_runs',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    translation: () => p.manyToOne(Translation).ref().deleteRule('cascade'),
    status: p.string().length(16).$type<TranslationRunStatus>().default('queued'),
    provider: p.string().length(32).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    /** Pages and words translated by this run (unchanged pages are not counted). */
    pages: p.integer().default(0),
    words: p.integer().default(0),
    durationMs: p.integer().nullable(),
    rejected: p.json<RejectedSegment[]>().onCreate(() => []),
    errorCode: p.string().length(32).nullable(),
    errorMessage: p.string().length(2000).nullable(),
  },
  indexes: [
    { properties: ['translation', 'createdAt', 'id'] },
    {
      // At most one run of a translation waits or runs: what makes asks coalesce and runs exclusive.
      name: 'translation_runs_one_live',
      expression: `create unique index "translation_runs_one_live" on "translation_runs" ("translation_id") where "status" in ('queued', 'running')`,
    },
  ],
});

export class TranslationRun extends TranslationRunSchema.class {}
TranslationRunSchema.setClass(TranslationRun);
