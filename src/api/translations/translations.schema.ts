import { Id, RichTextDocument, UrlsLocation } from '../http/common.schema.ts';
import { Language } from '../http/content.schema.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';

export const TranslationParams = OrgParams.extend({ translationId: Id });

export const TranslationSource = z.object({ space: Id, language: Language }).meta({ id: 'TranslationSource' });

// The published document requires `source` (the seed shows it optional): without it there is nothing to translate.
export const CreateTranslationBody = z.object({
  language: Language,
  source: TranslationSource,
  instructions: RichTextDocument.optional(),
});
export type CreateTranslationBody = z.infer<typeof CreateTranslationBody>;

export const UpdateTranslationBody = z.object({ instructions: RichTextDocument });

const RunError = z.object({ code: z.string(), message: z.string() });

export const TranslationWire = z
  .object({
    object: z.literal('translation'),
    id: z.string(),
    status: z.enum(['pending', 'running', 'completed']).meta({ id: 'TranslationStatus' }),
    source: TranslationSource,
    language: Language,
    instructions: RichTextDocument,
    result: z.object({ space: z.string(), revision: z.string() }).optional().openapi({ description: 'Only once a run produced a result' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    stats: z.object({
      runs: z.number().int(),
      totalWords: z.number().int(),
      totalPages: z.number().int(),
      totalDuration: z.number().int().openapi({ description: 'Seconds' }),
      latestRunDuration: z.number().int().openapi({ description: 'Seconds' }),
      latestPages: z.number().int(),
      latestWords: z.number().int(),
    }),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: UrlsLocation,
    lastRun: z
      .object({
        run: z.string(),
        outcome: z.enum(['completed', 'failed']),
        startedAt: z.string(),
        finishedAt: z.string(),
        error: RunError.nullable(),
      })
      .optional()
      .openapi({ description: 'Beyond GitBook: the latest run’s outcome; a failed run is recorded here and keeps the previous status and result' }),
  })
  .meta({ id: 'Translation' });

export const TranslationRunWire = z
  .object({
    object: z.literal('translation-run'),
    id: z.string(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    provider: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    pages: z.number().int(),
    words: z.number().int(),
    duration: z.number().nullable().openapi({ description: 'Seconds, once the run finished' }),
    rejected: z.array(z.object({ page: z.string(), segment: z.number().int(), reason: z.string() })).openapi({
      description: 'Blocks whose translation failed validation: they kept their source text',
    }),
    error: RunError.nullable(),
  })
  .meta({ id: 'TranslationRun' });
