import { flattenTree, type TreePage } from '../content/revision-reader.ts';
import { notFound } from '../shared/errors.ts';

/** What a PDF covers: the whole content (`pageId` null), a page and its descendants, or one page alone (`only`). */
export type ExportScope = { pageId: string | null; only: boolean };

/** The scope as the cache keys it; `only` means nothing without a page, so it does not split the cache. */
export function scopeKey(scope: ExportScope): string {
  if (!scope.pageId) return 'all';
  return `${scope.only ? 'only' : 'page'}:${scope.pageId}`;
}

export function parseScope(key: string): ExportScope {
  const [kind, pageId] = key.split(':');
  return kind === 'all' || !pageId ? { pageId: null, only: false } : { pageId, only: kind === 'only' };
}

export type SelectedPage = { page: TreePage; depth: number };

/** The pages a scope covers, in reading order (depth first), with their depth below the scope's root. */
export function selectPages(tree: TreePage[], scope: ExportScope): SelectedPage[] {
  if (!scope.pageId) return withDepth(tree, 0);
  const root = flattenTree(tree).find((p) => p.node.pageId === scope.pageId);
  if (!root) throw notFound('Page');
  return scope.only ? [{ page: root, depth: 0 }] : withDepth([root], 0);
}

function withDepth(pages: TreePage[], depth: number): SelectedPage[] {
  return pages.flatMap((page) => [{ page, depth }, ...withDepth(page.children, depth + 1)]);
}
