import { ROLES } from '../../domain/shared/roles.ts';
import { z } from './zod.ts';

/*
 * Names of wire schemas (zod, never entities): `XWire` is the object of a resource as the
 * API shows it (`SpaceWire`; the entity is `Space`), `XBody` a request body, `XQuery` and
 * `XParams` the query and path, `XResponse` a whole response body that is not a resource.
 */

/** Path ids: opaque strings. Unknown ones answer 404, so only absurd input is a 400. */
export const Id = z.string().min(1).max(100);

export const Role = z.enum(ROLES).meta({ id: 'MemberRole' });
export const RoleOrGuest = Role.nullable();

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1000;

/** Query booleans arrive as text; only the two words the client sends are accepted. */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .openapi({ type: 'boolean' });

export const PagingQuery = z.object({
  page: z.string().max(1000).optional().openapi({ description: 'Opaque token from `next.page` of the previous page' }),
  limit: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .openapi({ description: `Items per page (default ${DEFAULT_PAGE_LIMIT}, at most ${MAX_PAGE_LIMIT})` }),
});

export const Order = z.enum(['asc', 'desc']).default('desc');

export const ErrorBody = z
  .object({ error: z.object({ code: z.number().int(), message: z.string() }) })
  .meta({ id: 'Error' });

export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    next: z.object({ page: z.string() }).optional(),
    count: z.number().int(),
    items: z.array(item),
  });
}

export const UrlsLocation = z.object({ location: z.string() });

export const RichTextDocument = z
  .object({
    object: z.literal('document'),
    data: z.record(z.string(), z.unknown()).default({}),
    nodes: z.array(z.unknown()).max(10_000),
  })
  .meta({ id: 'JSONDocument' });
