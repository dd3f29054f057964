import { defineEntity, p } from '@mikro-orm/core';

export type PageKind = 'document' | 'group' | 'link';
export type LinkTarget = { kind: 'url'; url: string } | { kind: 'page'; page: string } | { kind: 'file'; file: string };

/**
 * One page of a page tree, content-addressed: its hash covers its fields, its body's
 * hash and its children's hashes (a Merkle tree). A revision names only its top-level
 * nodes, so changing one page writes that page and its ancestors, never the whole tree.
 * The page id stays the same across revisions; the hash changes with the content.
 */
export const PageNodeSchema = defineEntity({
  name: 'PageNode',
  tableName: 'page_nodes',
  properties: {
    hash: p.string().length(43).primary(),
    pageId: p.string().length(20),
    kind: p.string().length(16).$type<PageKind>(),
    title: p.string().length(255),
    slug: p.string().length(255),
    description: p.string().length(1000).nullable(),
    emoji: p.string().length(50).nullable(),
    hidden: p.boolean().default(false),
    bodyHash: p.string().length(43).nullable(),
    linkTarget: p.json<LinkTarget>().nullable(),
    /** Where the page came from in a Git repository, for re-imports and relative links. */
    gitPath: p.string().length(1024).nullable(),
    variables: p.json<Record<string, string | number | boolean>>().nullable(),
    children: p.array().default([]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // The content sweep asks which bodies any node still names.
  indexes: [{ properties: ['bodyHash'] }],
});

export class PageNode extends PageNodeSchema.class {}
PageNodeSchema.setClass(PageNode);
