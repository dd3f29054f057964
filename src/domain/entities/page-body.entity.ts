import { defineEntity, p } from '@mikro-orm/core';

/**
 * A page's Markdown, stored once per content hash and shared by every revision, space
 * copy and change request that has the same text. Never updated, never deleted with a
 * space: other spaces may share it.
 */
export const PageBodySchema = defineEntity({
  name: 'PageBody',
  tableName: 'page_bodies',
  properties: {
    hash: p.string().length(43).primary(),
    markdown: p.text(),
    /** Links found in the text (raw targets), extracted once per body. */
    links: p.json<string[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class PageBody extends PageBodySchema.class {}
PageBodySchema.setClass(PageBody);
