import type { PageSpec } from '../page-tree.ts';
import type { NodeData, TreePage } from '../revision-reader.ts';
import type { MergePage } from './types.ts';

/** The node fields the merge carries whole: none of them is merged inside. */
type OpaqueFields = Pick<NodeData, 'kind' | 'slug' | 'emoji' | 'hidden' | 'linkTarget' | 'gitPath' | 'variables'>;

/**
 * A revision's tree as merge pages, in tree order. Bodies are looked up through `markdown`
 * (the caller loads them, e.g. with loadBodies), so this stays free of the database.
 */
export function toMergePages(tree: TreePage[], markdown: (bodyHash: string) => string): MergePage[] {
  return tree.flatMap((page) => {
    const { pageId, title, description, bodyHash, kind, slug, emoji, hidden, linkTarget, gitPath, variables } = page.node;
    const fields: OpaqueFields = { kind, slug, emoji, hidden, linkTarget, gitPath, variables };
    const own: MergePage = {
      id: pageId,
      parentId: page.parentId,
      title,
      description: description ?? null,
      markdown: bodyHash ? markdown(bodyHash) : null,
      fields,
    };
    return [own, ...toMergePages(page.children, markdown)];
  });
}

/** Merged pages back into the nested specs a commit takes (storePageTree), ids kept. */
export function toPageSpecs(pages: MergePage[]): PageSpec[] {
  const specs = new Map<string | null, PageSpec[]>();
  const level = (parentId: string | null) => specs.get(parentId) ?? specs.set(parentId, []).get(parentId)!;
  for (const page of pages) {
    const fields = page.fields as OpaqueFields;
    level(page.parentId).push({
      id: page.id,
      kind: fields.kind,
      title: page.title,
      slug: fields.slug,
      description: page.description,
      emoji: fields.emoji,
      hidden: fields.hidden,
      ...(page.markdown === null ? {} : { markdown: page.markdown }),
      ...(fields.linkTarget ? { linkTarget: fields.linkTarget } : {}),
      gitPath: fields.gitPath,
      variables: fields.variables,
      children: level(page.id),
    });
  }
  return level(null);
}
