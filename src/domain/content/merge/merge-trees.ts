import { mergePage } from './merge-page.ts';
import { mergeSiblingOrder } from './merge-order.ts';
import { childrenOf, indexTree, preorder, type TreeIndex } from './tree-index.ts';
import type { MergeConflict, MergePage, TreeMergeResult } from './types.ts';

/**
 * Three-way merge of two page trees against their common ancestor: page by page and field by
 * field (bodies line by line), then the structure (every parent still exists, no cycle), then
 * the sibling order of every parent. Any conflict answers `conflicts` and no pages, so a caller
 * changes nothing; every conflict found is reported, not only the first.
 */
export function mergeTrees(base: MergePage[], ours: MergePage[], theirs: MergePage[]): TreeMergeResult {
  const b = indexTree(base);
  const o = indexTree(ours);
  const t = indexTree(theirs);
  const merged = new Map<string, MergePage>();
  const conflicts: MergeConflict[] = [];
  const conflicted = new Set<string>();
  const ids = [...new Set([...b.byId.keys(), ...o.byId.keys(), ...t.byId.keys()])].sort();
  for (const id of ids) {
    const outcome = mergePage(b.byId.get(id), o.byId.get(id), t.byId.get(id));
    if (outcome.page) merged.set(id, outcome.page);
    if (outcome.conflicts.length) conflicted.add(id);
    conflicts.push(...outcome.conflicts);
  }
  conflicts.push(...structureConflicts(merged, conflicted));
  const children = new Map<string | null, string[]>();
  for (const parentId of [null, ...merged.keys()]) {
    const belongs = (id: string) => merged.get(id)?.parentId === parentId;
    const outcome = mergeSiblingOrder(childrenOf(b, parentId), childrenOf(o, parentId), childrenOf(t, parentId), belongs);
    if ('conflict' in outcome) {
      for (const pageId of outcome.conflict) conflicts.push({ pageId, kind: 'order', details: 'reordered differently on both sides' });
    } else children.set(parentId, outcome.order);
  }
  if (conflicts.length) return { result: 'conflicts', conflicts: conflicts.sort(byPageThenKind) };
  return { result: 'merged', pages: preorder(withChildren(merged, children)) };
}

/**
 * Pages whose merged parent is gone, and moves that together form a cycle (each side moved
 * one page under the other). A parent that is itself in conflict is not reported again.
 */
function structureConflicts(merged: Map<string, MergePage>, conflicted: Set<string>): MergeConflict[] {
  const conflicts: MergeConflict[] = [];
  const state = new Map<string, 'walking' | 'done'>();
  for (const page of merged.values()) {
    if (page.parentId !== null && !merged.has(page.parentId) && !conflicted.has(page.parentId)) {
      conflicts.push({ pageId: page.id, kind: 'parent-removed', details: `parent ${page.parentId} was removed` });
    }
    const path: string[] = [];
    let id: string | null = page.id;
    while (id !== null && merged.has(id) && !state.has(id)) {
      state.set(id, 'walking');
      path.push(id);
      id = merged.get(id)!.parentId;
    }
    if (id !== null && state.get(id) === 'walking') {
      for (const member of path.slice(path.indexOf(id))) {
        conflicts.push({ pageId: member, kind: 'cycle', details: 'the moves on both sides put this page inside itself' });
      }
    }
    for (const walked of path) state.set(walked, 'done');
  }
  return conflicts;
}

function withChildren(merged: Map<string, MergePage>, children: Map<string | null, string[]>): TreeIndex {
  return { byId: merged, children };
}

function byPageThenKind(a: MergeConflict, b: MergeConflict): number {
  return a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}
