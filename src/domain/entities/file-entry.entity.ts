import { defineEntity, p } from '@mikro-orm/core';

/**
 * A file of a revision, content-addressed like pages. `blobKey` names the bytes in the
 * storage adapter (itself the SHA-256 of the bytes), so identical uploads share storage.
 */
export const FileEntrySchema = defineEntity({
  name: 'FileEntry',
  tableName: 'file_entries',
  properties: {
    hash: p.string().length(43).primary(),
    fileId: p.string().length(20),
    name: p.string().length(255),
    contentType: p.string().length(255),
    size: p.bigint('number'),
    blobKey: p.string().length(64),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    gitPath: p.string().length(1024).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // The content sweep asks whether any entry still uses a blob.
  indexes: [{ properties: ['blobKey'] }],
});

export class FileEntry extends FileEntrySchema.class {}
FileEntrySchema.setClass(FileEntry);
