import type { LinkTarget, PageKind } from '../entities/page-node.entity.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../shared/errors.ts';
import type { PageSpec } from './page-tree.ts';

/** Where a page goes: a parent page (null: the top level; absent: where it is) and a sibling to stand next to. */
export type PagePlacement = { parent?: string | null; position?: { before?: string; after?: string } };

export type NewPage = {
  kind: PageKind;
  title: string;
  description?: string | null;
  emoji?: string | null;
  hidden?: boolean;
  markdown?: string;
  linkTarget?: LinkTarget;
} & PagePlacement;

export type PagePatch = Partial<Pick<NewPage, 'title' | 'description' | 'emoji' | 'hidden' | 'markdown' | 'linkTarget'>>;

export type PageEdit =
  | { op: 'create'; page: NewPage }
  | { op: 'update'; pageId: string; patch: PagePatch }
  | { op: 'move'; pageId: string; to: PagePlacement }
  | { op: 'delete'; pageId: string };

/** The page an edit names is not in the tree (a 404; an idempotent delete answers it as done). */
export class PageMissingError extends NotFoundError {}

/**
 * Applies one page edit to a page tree (as `specsOf` gives it, fresh objects the edit may
 * change) and answers the tree to commit. Pure: the caller runs it on whatever tree is
 * current when its commit takes its turn, so concurrent edits compose. Input that does not
 * fit the tree is a 400 and changes nothing; a move that would leave the page where it is
 * a 409, as moves of spaces and collections are.
 */
export function applyPageEdit(tree: PageSpec[], edit: PageEdit, newPageId: string): PageSpec[] {
  switch (edit.op) {
    case 'create': {
      const { parent = null, position, ...fields } = edit.page;
      checkKindFields(tree, fields.kind, fields);
      if (fields.kind === 'link' && !fields.linkTarget) throw new BadRequestError('linkTarget: a link page needs a target');
      const page: PageSpec = { ...fields, id: newPageId, children: [] };
      if (fields.kind === 'document') page.markdown = fields.markdown ?? '';
      place(tree, page, parent, position);
      return tree;
    }
    case 'update': {
      const { spec } = locateOrThrow(tree, edit.pageId);
      checkKindFields(tree, spec.kind, edit.patch);
      for (const [key, value] of Object.entries(edit.patch)) if (value !== undefined) Object.assign(spec, { [key]: value });
      return tree;
    }
    case 'move': {
      const found = locateOrThrow(tree, edit.pageId);
      const parent = edit.to.parent === undefined ? found.parentId : edit.to.parent;
      const pointer = edit.to.position?.after ?? edit.to.position?.before;
      if (parent === found.parentId && pointer === undefined) throw new ConflictError('The move would change nothing');
      if (parent !== null && (parent === edit.pageId || locate(found.spec.children ?? [], parent))) {
        throw new BadRequestError('parent: a page cannot be moved under itself or one of its pages');
      }
      const before = { parentId: found.parentId, index: found.index };
      found.list.splice(found.index, 1);
      const landed = place(tree, found.spec, parent, edit.to.position);
      if (landed.parentId === before.parentId && landed.index === before.index) throw new ConflictError('The move would change nothing');
      return tree;
    }
    case 'delete': {
      const found = locateOrThrow(tree, edit.pageId);
      // The page goes with everything under it.
      found.list.splice(found.index, 1);
      return tree;
    }
  }
}

/** Body text belongs to documents, a target to links; a link's target must exist. */
function checkKindFields(tree: PageSpec[], kind: PageKind, fields: PagePatch) {
  if (fields.markdown !== undefined && kind !== 'document') throw new BadRequestError(`markdown: a ${kind} page has no body`);
  if (fields.linkTarget !== undefined && kind !== 'link') throw new BadRequestError(`linkTarget: only link pages have a target`);
  const target = fields.linkTarget;
  if (target?.kind === 'page' && !locate(tree, target.page)) throw new BadRequestError(`linkTarget.page: no page "${target.page}" in the change request`);
}

type Located = { list: PageSpec[]; index: number; spec: PageSpec; parentId: string | null };

function locate(list: PageSpec[], pageId: string, parentId: string | null = null): Located | undefined {
  for (let index = 0; index < list.length; index++) {
    const spec = list[index]!;
    if (spec.id === pageId) return { list, index, spec, parentId };
    const below = locate(spec.children ?? [], pageId, spec.id ?? null);
    if (below) return below;
  }
  return undefined;
}

function locateOrThrow(tree: PageSpec[], pageId: string): Located {
  const found = locate(tree, pageId);
  if (!found) throw new PageMissingError('Page not found');
  return found;
}

/** Inserts `page` among `parentId`'s children, next to a sibling or last; answers where it landed. */
function place(tree: PageSpec[], page: PageSpec, parentId: string | null, position: PagePlacement['position']): { parentId: string | null; index: number } {
  let siblings = tree;
  if (parentId !== null) {
    const parent = locate(tree, parentId);
    if (!parent) throw new BadRequestError(`parent: no page "${parentId}" in the change request`);
    if (parent.spec.kind === 'link') throw new BadRequestError('parent: a link page cannot hold pages');
    siblings = parent.spec.children ??= [];
  }
  const pointer = position?.after ?? position?.before;
  let index = siblings.length;
  if (pointer !== undefined) {
    if (position?.after !== undefined && position?.before !== undefined) throw new BadRequestError('position: give either before or after, not both');
    if (pointer === page.id) throw new BadRequestError('position: a page cannot be placed next to itself');
    const at = siblings.findIndex((s) => s.id === pointer);
    if (at < 0) throw new BadRequestError(`position: page "${pointer}" is not among the destination's pages`);
    index = position?.after !== undefined ? at + 1 : at;
  }
  siblings.splice(index, 0, page);
  return { parentId, index };
}
