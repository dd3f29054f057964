import { defineEntity, p } from '@mikro-orm/core';

/**
 * A blob whose last file entry was swept: written in the same transaction as the sweep,
 * removed once the bytes are gone from the store, so a crash in between only delays it.
 */
export const BlobTombstoneSchema = defineEntity({
  name: 'BlobTombstone',
  tableName: 'blob_tombstones',
  properties: {
    key: p.string().length(64).primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class BlobTombstone extends BlobTombstoneSchema.class {}
BlobTombstoneSchema.setClass(BlobTombstone);
