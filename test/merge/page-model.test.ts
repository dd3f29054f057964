import { describe, expect, it } from 'vitest';
import { mergeTrees, toMergePages, toPageSpecs } from '../../src/domain/content/merge/index.ts';
import type { NodeData, TreePage } from '../../src/domain/content/revision-reader.ts';

const node = (pageId: string, extra: Partial<NodeData> = {}): NodeData => ({
  hash: `h-${pageId}`,
  pageId,
  kind: 'document',
  title: `Title ${pageId}`,
  slug: pageId,
  description: null,
  emoji: null,
  hidden: false,
  bodyHash: `b-${pageId}`,
  linkTarget: null,
  gitPath: null,
  variables: null,
  children: [],
  ...extra,
});
const tp = (n: NodeData, parentId: string | null, children: TreePage[] = []): TreePage => ({ node: n, path: n.slug, parentId, children });

const tree: TreePage[] = [
  tp(node('g', { kind: 'group', bodyHash: null }), null, [tp(node('d1'), 'g'), tp(node('l', { kind: 'link', bodyHash: null, linkTarget: { kind: 'url', url: 'https://x.test' } }), 'g')]),
  tp(node('d2', { emoji: '📘', hidden: true, variables: { v: 1 } }), null),
];
const bodies = (hash: string) => `body of ${hash}\n`;

describe('merge page model', () => {
  it('reads a revision tree into merge pages in tree order, bodies only for documents', () => {
    const pages = toMergePages(tree, bodies);
    expect(pages.map((p) => [p.parentId, p.id, p.markdown])).toEqual([
      [null, 'g', null],
      ['g', 'd1', 'body of b-d1\n'],
      ['g', 'l', null],
      [null, 'd2', 'body of b-d2\n'],
    ]);
  });

  it('turns merged pages back into the specs a commit stores, keeping ids and every field', () => {
    const pages = toMergePages(tree, bodies);
    const theirs = pages.map((p) => (p.id === 'd1' ? { ...p, title: 'Renamed' } : p));
    const result = mergeTrees(pages, pages, theirs);
    expect(result.result === 'merged' && toPageSpecs(result.pages)).toEqual([
      {
        id: 'g', kind: 'group', title: 'Title g', slug: 'g', description: null, emoji: null, hidden: false, gitPath: null, variables: null,
        children: [
          { id: 'd1', kind: 'document', title: 'Renamed', slug: 'd1', description: null, emoji: null, hidden: false, markdown: 'body of b-d1\n', gitPath: null, variables: null, children: [] },
          { id: 'l', kind: 'link', title: 'Title l', slug: 'l', description: null, emoji: null, hidden: false, linkTarget: { kind: 'url', url: 'https://x.test' }, gitPath: null, variables: null, children: [] },
        ],
      },
      { id: 'd2', kind: 'document', title: 'Title d2', slug: 'd2', description: null, emoji: '📘', hidden: true, markdown: 'body of b-d2\n', gitPath: null, variables: { v: 1 }, children: [] },
    ]);
  });
});
