import type { MergePage } from './types.ts';

/** A tree's pages by id and the ordered child ids of every parent (null: the top level). */
export type TreeIndex = { byId: Map<string, MergePage>; children: Map<string | null, string[]> };

export function indexTree(pages: MergePage[]): TreeIndex {
  const byId = new Map<string, MergePage>();
  const children = new Map<string | null, string[]>();
  for (const page of pages) {
    byId.set(page.id, page);
    const list = children.get(page.parentId);
    if (list) list.push(page.id);
    else children.set(page.parentId, [page.id]);
  }
  return { byId, children };
}

export function childrenOf(index: TreeIndex, parentId: string | null): string[] {
  return index.children.get(parentId) ?? [];
}

/** The pages in depth-first order, children in sibling order: the canonical order of a tree. */
export function preorder(index: TreeIndex): MergePage[] {
  const out: MergePage[] = [];
  const visit = (parentId: string | null) => {
    for (const id of childrenOf(index, parentId)) {
      out.push(index.byId.get(id)!);
      visit(id);
    }
  };
  visit(null);
  return out;
}

/** Value equality for the opaque fields (JSON values): key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  // An absent key and an undefined one are the same value (the merge drops undefined fields).
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
