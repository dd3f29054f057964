import { defineEntity, p } from '@mikro-orm/core';
import { Translation } from './translation.entity.ts';

/**
 * One source page's translation, kept between runs: a re-run translates only pages whose
 * source hash changed, and a worker killed mid-run resumes past the pages already written
 * here (each committed as it is done: the run's checkpoints). `resultPage` is the page id
 * in the result space, the same across runs.
 */
export const TranslationPageSchema = defineEntity({
  name: 'TranslationPage',
  tableName: 'translation_pages',
  properties: {
    translation: () => p.manyToOne(Translation).ref().primary().deleteRule('cascade'),
    sourcePage: p.string().length(20).primary(),
    /** Hash of what was translated (title, description, body) under the instructions and glossary used. */
    sourceHash: p.string().length(64),
    resultPage: p.string().length(20),
    title: p.text(),
    description: p.text().nullable(),
    markdown: p.text().nullable(),
    words: p.integer().default(0),
    /** The run that translated it last. */
    run: p.string().length(20),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class TranslationPage extends TranslationPageSchema.class {}
TranslationPageSchema.setClass(TranslationPage);
