import { QueryBoolean } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const RunQuery = z.object({
  dryRun: QueryBoolean.optional().openapi({ description: 'Beyond GitBook: answer what a run would translate now (200), record nothing' }),
});

/** Beyond GitBook: the answer of a dry run. */
export const DryRunWire = z
  .object({
    pages: z.number().int().openapi({ description: 'Pages whose source changed since their translation (or that have none)' }),
    words: z.number().int().openapi({ description: 'Words in those pages' }),
  })
  .meta({ id: 'TranslationDryRun' });
