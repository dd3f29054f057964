import type { EntityManager } from '@mikro-orm/postgresql';
import type { Revision } from '../entities/revision.entity.ts';
import type { PageSpec } from './page-tree.ts';
import { loadBodies, loadTree, type TreePage } from './revision-reader.ts';

/**
 * A revision's pages as specs again (bodies included), to build the next revision from:
 * templates append to it, importers match page ids against it.
 */
export async function specsOf(em: EntityManager, revision: Revision): Promise<PageSpec[]> {
  const tree = await loadTree(em, revision.pages);
  const bodies = await loadBodies(em, collect(tree).flatMap((p) => (p.node.bodyHash ? [p.node.bodyHash] : [])));
  const toSpec = (p: TreePage): PageSpec => ({
    id: p.node.pageId,
    kind: p.node.kind,
    title: p.node.title,
    slug: p.node.slug,
    description: p.node.description,
    emoji: p.node.emoji,
    hidden: p.node.hidden,
    ...(p.node.bodyHash ? { markdown: bodies.get(p.node.bodyHash)?.markdown ?? '' } : {}),
    ...(p.node.linkTarget ? { linkTarget: p.node.linkTarget } : {}),
    gitPath: p.node.gitPath,
    variables: p.node.variables,
    children: p.children.map(toSpec),
  });
  return tree.map(toSpec);
}

function collect(tree: TreePage[]): TreePage[] {
  return tree.flatMap((p) => [p, ...collect(p.children)]);
}
