/**
 * The page model the merge works on: plain data keyed by the stable page id, so the merge
 * needs no database and the same function serves "update" (main into the change request)
 * and "merge" (the change request into main).
 *
 * A tree is a list of pages; sibling order is the order in which pages with the same
 * parent appear in the list.
 */
export type MergePage = {
  id: string;
  parentId: string | null;
  title: string;
  description: string | null;
  /** null for pages without a body (groups, links). */
  markdown: string | null;
  /** Every other field (kind, slug, emoji, hidden, link target…), merged whole, compared by value. */
  fields: Record<string, unknown>;
};

export type TextConflict = { oursLines: string[]; theirsLines: string[]; baseLines: string[] };

export type MergeConflictKind =
  | 'content'
  | 'title'
  | 'description'
  | 'field'
  | 'delete-edit'
  | 'add-add'
  | 'move'
  | 'cycle'
  | 'parent-removed'
  | 'order';

export type MergeConflict = { pageId: string; kind: MergeConflictKind; details: string; hunks?: TextConflict[] };

export type TreeMergeResult = { result: 'merged'; pages: MergePage[] } | { result: 'conflicts'; conflicts: MergeConflict[] };
