import type { EntityManager } from '@mikro-orm/postgresql';
import { commitOnChangeRequest } from '../../src/domain/change-requests/commit-change-request.ts';
import { commitOnCurrent } from '../../src/domain/content/commit-revision.ts';
import { specsOf } from '../../src/domain/content/current-pages.ts';
import type { PageSpec } from '../../src/domain/content/page-tree.ts';
import { ChangeRequest } from '../../src/domain/entities/change-request.entity.ts';
import { Revision } from '../../src/domain/entities/revision.entity.ts';
import type { Space } from '../../src/domain/entities/space.entity.ts';

/**
 * Edits of page trees for merge tests: each edit is a function of the tree it is given,
 * committed on main (as an import would) or on a change request (as an editor would).
 */
export type TreeEdit = (pages: PageSpec[]) => PageSpec[];

/** Applies `change` to the page with `id`, wherever it is in the tree. */
export const editPage = (id: string, change: (page: PageSpec) => PageSpec): TreeEdit => {
  const walk = (pages: PageSpec[]): PageSpec[] => pages.map((p) => (p.id === id ? change(p) : { ...p, children: walk(p.children ?? []) }));
  return walk;
};

/** Replaces line `n` (0-based) of the page's body. */
export const editLine = (id: string, n: number, text: string): TreeEdit =>
  editPage(id, (p) => {
    const lines = (p.markdown ?? '').split('\n');
    lines[n] = text;
    return { ...p, markdown: lines.join('\n') };
  });

export const removePage = (id: string): TreeEdit => {
  const walk = (pages: PageSpec[]): PageSpec[] => pages.filter((p) => p.id !== id).map((p) => ({ ...p, children: walk(p.children ?? []) }));
  return walk;
};

/** Moves a page (with its children) to the end of `parentId`'s children (null: the top level). */
export const movePage = (id: string, parentId: string | null): TreeEdit => (pages) => {
  const moved = findPage(pages, id)!;
  const without = removePage(id)(pages);
  if (parentId === null) return [...without, moved];
  return editPage(parentId, (p) => ({ ...p, children: [...(p.children ?? []), moved] }))(without);
};

export const addPage = (page: PageSpec): TreeEdit => (pages) => [...pages, page];

export function findPage(pages: PageSpec[], id: string): PageSpec | undefined {
  for (const p of pages) {
    if (p.id === id) return p;
    const found = findPage(p.children ?? [], id);
    if (found) return found;
  }
  return undefined;
}

/** Every page of a tree, depth first. */
export const allPages = (pages: PageSpec[]): PageSpec[] => pages.flatMap((p) => [p, ...allPages(p.children ?? [])]);

export async function commitOnMain(em: EntityManager, space: Space, edit: TreeEdit): Promise<Revision> {
  return commitOnCurrent(em, space, async (tx, current) => ({ pages: edit(await specsOf(tx, current)), files: current.files, variables: current.variables }), () => undefined);
}

export async function commitOnRequest(em: EntityManager, space: Space, changeRequest: ChangeRequest, edit: TreeEdit): Promise<Revision> {
  return commitOnChangeRequest(em, space, changeRequest, async (tx, head) => ({ pages: edit(await specsOf(tx, head)), files: head.files, variables: head.variables }));
}

export async function pagesOf(em: EntityManager, revisionId: string): Promise<PageSpec[]> {
  return specsOf(em, await em.findOneOrFail(Revision, { id: revisionId }));
}

export async function mainRevision(em: EntityManager, space: Space): Promise<string> {
  return (await em.execute<{ revision: string }[]>('select revision from spaces where id = ?', [space.id]))[0]!.revision;
}

export async function mainPages(em: EntityManager, space: Space): Promise<PageSpec[]> {
  return pagesOf(em, await mainRevision(em, space));
}

export async function changeRequestNow(em: EntityManager, id: string): Promise<ChangeRequest> {
  return em.findOneOrFail(ChangeRequest, { id }, { refresh: true });
}
