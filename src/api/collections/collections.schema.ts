import { Id, PagingQuery, QueryBoolean } from '../http/common.schema.ts';
import { DefaultLevel } from '../http/content.schema.ts';
import { z } from '../http/zod.ts';

export const CollectionWire = z
  .object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    organization: z.string(),
    parent: z.string().optional(),
    defaultLevel: DefaultLevel,
    urls: z.object({ location: z.string(), app: z.string() }),
    permissions: z.object({ view: z.boolean(), admin: z.boolean(), viewInviteLinks: z.boolean(), create: z.boolean() }),
  })
  .meta({ id: 'Collection' });

export const CollectionParams = z.object({ collectionId: Id });

export const CreateCollectionBody = z
  .object({
    title: z.string().trim().min(1).max(50).optional(),
    description: z.string().max(100).optional(),
    parent: Id.optional(),
  })
  .optional();

export const UpdateCollectionBody = z.object({
  title: z.string().trim().min(1).max(50).optional(),
  description: z.string().max(100).nullable().optional(),
  defaultLevel: DefaultLevel.optional(),
});

export const ListCollectionsQuery = PagingQuery.extend({
  nested: QueryBoolean.default(true).openapi({ description: 'false: only top-level collections' }),
});
