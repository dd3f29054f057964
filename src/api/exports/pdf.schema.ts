import { Id, QueryBoolean } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const PdfQuery = z.object({
  only: QueryBoolean.default(false).openapi({ description: 'With `page`: that page alone, without its descendants (ignored without `page`)' }),
  page: Id.optional().openapi({ description: 'A page of the content: the PDF covers that page and its descendants (or only it, with `only`)' }),
});

export const PdfUrlResponse = z
  .object({ url: z.string().openapi({ description: 'Signed link to the PDF, valid for FILE_URL_TTL seconds (1 h by default); answers 503 with Retry-After while the PDF is still rendering' }) })
  .meta({ id: 'PdfUrl' });

export const PdfDownloadParams = z.object({ exportId: Id });

export const PdfDownloadQuery = z.object({
  name: z.string().min(1).max(255),
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(128),
});
