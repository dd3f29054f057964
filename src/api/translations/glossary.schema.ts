import { Id, UrlsLocation } from '../http/common.schema.ts';
import { Language } from '../http/content.schema.ts';
import { z } from '../http/zod.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';

export const GlossaryEntryParams = OrgParams.extend({ glossaryEntryId: Id });

const Term = z.string().min(1).max(255).regex(/^[^\n\r]*$/, 'a term is one line');

/** Keys are TranslationLanguage codes (an unknown code is refused); at least one term. */
export const GlossaryTranslations = z
  .partialRecord(Language, Term)
  .refine((t) => Object.keys(t).length > 0, 'give the term in at least one language')
  .meta({ id: 'GlossaryTranslations', description: 'Language code → translated term' })
  .openapi({ additionalProperties: false, minProperties: 1 });

export const GlossaryBatchOperation = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('insert'), translations: GlossaryTranslations }),
    z.object({ type: z.literal('update'), id: Id, translations: GlossaryTranslations }),
    z.object({ type: z.literal('delete'), id: Id }),
  ])
  .meta({ id: 'GlossaryBatchOperation' });

export const GlossaryBatchBody = z.object({ operations: z.array(GlossaryBatchOperation).max(1000) });

export const GlossaryEntryWire = z
  .object({
    object: z.literal('glossary-entry'),
    id: z.string(),
    translations: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
    urls: UrlsLocation,
  })
  .meta({ id: 'GlossaryEntry' });
