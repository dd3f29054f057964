import { mergeText } from './merge-text.ts';
import { sameValue } from './tree-index.ts';
import type { MergeConflict, MergeConflictKind, MergePage } from './types.ts';

export type PageOutcome = { page: MergePage | null; conflicts: MergeConflict[] };

/**
 * Merges one page id across the three versions (undefined: absent from that version).
 * A removal wins over an untouched page and conflicts with an edited one; a move counts as
 * an edit, a change of sibling position alone does not (that is the order merge's part).
 */
export function mergePage(base: MergePage | undefined, ours: MergePage | undefined, theirs: MergePage | undefined): PageOutcome {
  if (!base) {
    if (ours && theirs && !isEdited(ours, theirs)) return { page: ours, conflicts: [] };
    if (ours && theirs) return conflictOnly(ours.id, 'add-add', 'both sides added this page with different content');
    return { page: ours ?? theirs ?? null, conflicts: [] };
  }
  if (!ours && !theirs) return { page: null, conflicts: [] };
  if (!ours || !theirs) {
    const kept = (ours ?? theirs)!;
    if (!isEdited(base, kept)) return { page: null, conflicts: [] };
    const [removedBy, editedBy] = ours ? ['theirs', 'ours'] : ['ours', 'theirs'];
    return conflictOnly(base.id, 'delete-edit', `removed by ${removedBy}, edited by ${editedBy}`);
  }
  return mergeFields(base, ours, theirs);
}

function mergeFields(base: MergePage, ours: MergePage, theirs: MergePage): PageOutcome {
  const conflicts: MergeConflict[] = [];
  const pick = <T>(kind: MergeConflictKind, details: string, b: T, o: T, t: T): T => {
    const merged = pick3(b, o, t);
    if (merged.conflict) conflicts.push({ pageId: base.id, kind, details });
    return merged.value;
  };
  const parentId = pick('move', 'moved to different parents', base.parentId, ours.parentId, theirs.parentId);
  const title = pick('title', 'retitled differently', base.title, ours.title, theirs.title);
  const description = pick('description', 'description changed differently', base.description, ours.description, theirs.description);
  let markdown = ours.markdown;
  if (base.markdown !== null && ours.markdown !== null && theirs.markdown !== null) {
    const text = mergeText(base.markdown, ours.markdown, theirs.markdown);
    if ('merged' in text) markdown = text.merged;
    else conflicts.push({ pageId: base.id, kind: 'content', details: `${text.conflict.length} conflicting region(s)`, hunks: text.conflict });
  } else {
    // A body added or dropped (the page changed kind): nothing to merge line by line.
    markdown = pick('content', 'body added or removed on one side, changed on the other', base.markdown, ours.markdown, theirs.markdown);
  }
  const fields: Record<string, unknown> = {};
  const keys = [...new Set([...Object.keys(base.fields), ...Object.keys(ours.fields), ...Object.keys(theirs.fields)])].sort();
  for (const key of keys) {
    const value = pick('field', `${key} changed differently`, base.fields[key], ours.fields[key], theirs.fields[key]);
    if (value !== undefined) fields[key] = value;
  }
  if (conflicts.length) return { page: null, conflicts };
  return { page: { id: base.id, parentId, title, description, markdown, fields }, conflicts };
}

function pick3<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (sameValue(ours, theirs) || sameValue(theirs, base)) return { value: ours, conflict: false };
  if (sameValue(ours, base)) return { value: theirs, conflict: false };
  return { value: ours, conflict: true };
}

/** Whether `b` differs from `a` in anything but its sibling position. */
export function isEdited(a: MergePage, b: MergePage): boolean {
  return (
    a.parentId !== b.parentId ||
    a.title !== b.title ||
    a.description !== b.description ||
    a.markdown !== b.markdown ||
    !sameValue(a.fields, b.fields)
  );
}

function conflictOnly(pageId: string, kind: MergeConflictKind, details: string): PageOutcome {
  return { page: null, conflicts: [{ pageId, kind, details }] };
}
