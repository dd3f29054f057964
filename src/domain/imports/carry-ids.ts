import type { FileSpec } from '../content/files.ts';
import type { PageSpec } from '../content/page-tree.ts';
import type { FileEntry } from '../entities/file-entry.entity.ts';

/**
 * Re-imports keep page and file ids: a page whose Git path was already in the space
 * keeps that page's id (and a group its id by title), so links, comments and
 * bookmarks that name ids survive an import.
 */
export function carryPageIds(next: PageSpec[], previous: PageSpec[]): PageSpec[] {
  const byPath = new Map<string, string>();
  const byGroup = new Map<string, string>();
  const index = (specs: PageSpec[]) => {
    for (const s of specs) {
      if (s.id && s.gitPath) byPath.set(s.gitPath, s.id);
      if (s.id && s.kind === 'group') byGroup.set(s.title, s.id);
      index(s.children ?? []);
    }
  };
  index(previous);
  const used = new Set<string>();
  const apply = (specs: PageSpec[]): PageSpec[] =>
    specs.map((s) => {
      const candidate = s.gitPath ? byPath.get(s.gitPath) : s.kind === 'group' ? byGroup.get(s.title) : undefined;
      const id = candidate && !used.has(candidate) ? candidate : s.id;
      if (id) used.add(id);
      return { ...s, ...(id ? { id } : {}), children: apply(s.children ?? []) };
    });
  return apply(next);
}

export function carryFileIds(next: FileSpec[], previous: FileEntry[]): FileSpec[] {
  const byPath = new Map(previous.filter((f) => f.gitPath).map((f) => [f.gitPath!, f.fileId]));
  return next.map((f) => (f.gitPath && byPath.has(f.gitPath) ? { ...f, id: byPath.get(f.gitPath)! } : f));
}
