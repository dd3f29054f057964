import type { Collection } from '../../domain/entities/collection.entity.ts';
import type { ContentRoles } from '../../domain/content/content-roles.ts';
import { COLLECTION_PERMISSION_KEYS, collectionRules } from '../../domain/content/content.policy.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { CollectionWire } from './collections.schema.ts';

export function presentCollection(collection: Collection, access: ContentRoles, urls: Urls): z.infer<typeof CollectionWire> {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description ? { description: collection.description } : {}),
    organization: collection.organization.id,
    ...(collection.parent ? { parent: collection.parent.id } : {}),
    defaultLevel: collection.defaultLevel ?? null,
    urls: { location: urls.location(`/collections/${collection.id}`), app: urls.appLink(`/c/${collection.id}`) },
    permissions: permissionsOf(collectionRules, { role: access.roleForCollection(collection) }, COLLECTION_PERMISSION_KEYS),
  };
}
