import type { EntityManager } from '@mikro-orm/postgresql';
import type { RevisionInput } from '../content/commit-revision.ts';
import type { PageSpec } from '../content/page-tree.ts';
import { mergeTrees, toMergePages, toPageSpecs, type MergeConflict } from '../content/merge/index.ts';
import { sameValue } from '../content/merge/tree-index.ts';
import { flattenTree, loadBodies, loadFiles, loadTree } from '../content/revision-reader.ts';
import type { Revision } from '../entities/revision.entity.ts';

/**
 * A conflict as the API names it: a page (its id and what clashed), a file of the revision
 * (by file id) or a content variable (by name).
 */
export type ContentConflict =
  | Pick<MergeConflict, 'pageId' | 'kind' | 'details'>
  | { fileId: string; kind: 'file'; details: string }
  | { variable: string; kind: 'variable'; details: string };

export type RevisionMerge = { result: 'merged'; content: Pick<RevisionInput, 'pages' | 'files' | 'variables'> } | { result: 'conflicts'; conflicts: ContentConflict[] };

/**
 * Three-way merge of two revisions against their common ancestor: the page trees (pages
 * added, removed, moved, retitled; bodies line by line), the files (by file id) and the
 * variables (by name). Reads content only; the caller commits the result, or nothing.
 */
export async function mergeRevisions(em: EntityManager, base: Revision, ours: Revision, theirs: Revision): Promise<RevisionMerge> {
  const pages = await mergePages(em, base, ours, theirs);
  const files = await mergeFiles(em, base.files, ours.files, theirs.files);
  const variables = mergeVariables(base.variables, ours.variables, theirs.variables);
  const conflicts = [...(pages.result === 'conflicts' ? pages.conflicts : []), ...files.conflicts, ...variables.conflicts];
  if (conflicts.length || pages.result === 'conflicts') return { result: 'conflicts', conflicts };
  return { result: 'merged', content: { pages: pages.pages, files: files.merged, variables: variables.merged } };
}

/**
 * Bodies are stored by content hash, so equal hashes are equal bodies: a body only needs
 * reading when the three versions of a page have three different ones (a line merge). Every
 * other body stands in the merge as a token naming its hash, and leaves it as that hash.
 */
const TOKEN = '\u0000stored-body:';

async function mergePages(em: EntityManager, base: Revision, ours: Revision, theirs: Revision) {
  const trees = await Promise.all([base, ours, theirs].map((r) => loadTree(em, r.pages)));
  const [b, o, t] = trees.map((tree) => new Map(flattenTree(tree).map((p) => [p.node.pageId, p.node.bodyHash])));
  const toRead = [...b!].flatMap(([id, hb]) => {
    const [ho, ht] = [o!.get(id), t!.get(id)];
    return hb && ho && ht && hb !== ho && hb !== ht && ho !== ht ? [hb, ho, ht] : [];
  });
  const bodies = await loadBodies(em, toRead);
  const markdown = (hash: string) => bodies.get(hash)?.markdown ?? `${TOKEN}${hash}`;
  const [pb, po, pt] = trees.map((tree) => toMergePages(tree, markdown));
  const merged = mergeTrees(pb!, po!, pt!);
  if (merged.result === 'merged') return { result: 'merged' as const, pages: withStoredBodies(toPageSpecs(merged.pages)) };
  // Conflicting lines stay out of the answer: a 5,000-line clash would be the whole body.
  return { result: 'conflicts' as const, conflicts: merged.conflicts.map(({ pageId, kind, details }) => ({ pageId, kind, details })) };
}

function withStoredBodies(specs: PageSpec[]): PageSpec[] {
  return specs.map((spec) => {
    const { markdown, children, ...rest } = spec;
    const body = markdown?.startsWith(TOKEN) ? { bodyHash: markdown.slice(TOKEN.length) } : markdown === undefined ? {} : { markdown };
    return { ...rest, ...body, children: withStoredBodies(children ?? []) };
  });
}

/**
 * Files by file id: one side's change (or removal) wins over an untouched file; both sides
 * changing one file differently, or one changing what the other removed, is a conflict.
 * Ours' order, then the files only theirs added.
 */
async function mergeFiles(em: EntityManager, base: string[], ours: string[], theirs: string[]) {
  if (sameList(ours, theirs) || sameList(theirs, base)) return { merged: ours, conflicts: [] };
  if (sameList(ours, base)) return { merged: theirs, conflicts: [] };
  const entries = await loadFiles(em, [...new Set([...base, ...ours, ...theirs])]);
  const idOf = new Map(entries.map((e) => [e.hash, e.fileId]));
  const byId = (hashes: string[]) => new Map(hashes.map((h) => [idOf.get(h) ?? h, h]));
  const [b, o, t] = [byId(base), byId(ours), byId(theirs)];
  const conflicts: ContentConflict[] = [];
  const winner = new Map<string, string>();
  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const outcome = pick3(b.get(id), o.get(id), t.get(id));
    if (outcome.conflict) conflicts.push({ fileId: id, kind: 'file', details: 'changed differently on both sides, or changed on one and removed on the other' });
    else if (outcome.value !== undefined) winner.set(id, outcome.value);
  }
  const merged: string[] = [];
  for (const hash of [...ours, ...theirs]) {
    const id = idOf.get(hash) ?? hash;
    const kept = winner.get(id);
    if (kept === undefined) continue;
    merged.push(kept);
    winner.delete(id);
  }
  return { merged, conflicts };
}

type Variables = Record<string, string | number | boolean>;

function mergeVariables(base: Variables, ours: Variables, theirs: Variables) {
  const merged: Variables = {};
  const conflicts: ContentConflict[] = [];
  for (const name of [...new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])]) {
    const outcome = pick3(base[name], ours[name], theirs[name]);
    if (outcome.conflict) conflicts.push({ variable: name, kind: 'variable', details: 'set differently on both sides, or changed on one and removed on the other' });
    else if (outcome.value !== undefined) merged[name] = outcome.value;
  }
  return { merged, conflicts };
}

/** The three-way rule for a whole value: the side that changed it wins; both changing it differently conflicts. */
function pick3<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (sameValue(ours, theirs) || sameValue(theirs, base)) return { value: ours, conflict: false };
  if (sameValue(ours, base)) return { value: theirs, conflict: false };
  return { value: ours, conflict: true };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => b[i] === x);
}
