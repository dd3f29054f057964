import type { MergeConflict, MergePage } from '../../src/domain/content/merge/index.ts';

/**
 * Generators for merge property tests (test/merge and test/change-requests): seeded random
 * page trees with multi-line bodies, and random edits of every kind (bodies, titles, added,
 * removed and moved pages) on two sides, with the oracle of a correct merge of disjoint edits.
 */
export type Rng = { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T };
export function rng(seed: number): Rng {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

export const body = (id: string, lines: number) => [`# Page ${id}`, ...Array.from({ length: lines }, (_, k) => `${id} line ${k}`)].join('\n');

export function baseTree(r: Rng): MergePage[] {
  const pages: MergePage[] = [];
  for (let i = 0; i < 30; i++) {
    const id = `p${String(i).padStart(2, '0')}`;
    const parentId = i < 3 || r.next() < 0.15 ? null : r.pick(pages).id;
    pages.push({ id, parentId, title: `Title ${id}`, description: null, markdown: body(id, 6 + r.int(8)), fields: { kind: 'document', hidden: false } });
  }
  return pages;
}

export const childIds = (tree: MergePage[], parentId: string | null) => tree.filter((p) => p.parentId === parentId).map((p) => p.id);
export function subtree(tree: MergePage[], id: string): Set<string> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of tree) {
      if (p.parentId !== null && out.has(p.parentId) && !out.has(p.id)) {
        out.add(p.id);
        grew = true;
      }
    }
  }
  return out;
}
/** Puts `page` among its parent's children at a random place. */
export function place(tree: MergePage[], page: MergePage, r: Rng): MergePage[] {
  const siblings = childIds(tree, page.parentId);
  const k = r.int(siblings.length + 1);
  if (siblings.length === 0) return [...tree, page];
  const at = k === 0 ? tree.findIndex((p) => p.id === siblings[0]) : tree.findIndex((p) => p.id === siblings[k - 1]) + 1;
  return [...tree.slice(0, at), page, ...tree.slice(at)];
}

export type Side = {
  tag: string;
  /** Pages this side may edit, delete and move, and under which it may add or move pages. */
  mayTouch: (id: string) => boolean;
  /** Pages whose body is shared with the other side: only lines in [lo, hi) may change. */
  lineRange: (id: string, lines: number) => [number, number] | null;
  /** Only line edits (the non-owner of a split page). */
  bodyOnly?: boolean;
};

/** Applies random edits of every kind to `start` as `side` may. */
export function edit(start: MergePage[], side: Side, r: Rng, ops: number, moved = new Set<string>()): MergePage[] {
  let tree = start;
  let added = 0;
  for (let n = 0; n < ops; n++) {
    const touchable = tree.filter((p) => side.mayTouch(p.id));
    if (touchable.length === 0) break;
    const target = r.pick(touchable);
    const replace = (change: Partial<MergePage>) => (tree = tree.map((p) => (p.id === target.id ? { ...p, ...change } : p)));
    const op = side.bodyOnly ? 0 : r.int(6);
    if (op <= 1) {
      const lines = target.markdown!.split('\n');
      const range = side.lineRange(target.id, lines.length);
      const [lo, hi] = range ?? [0, lines.length];
      for (let e = 1 + r.int(3); e > 0 && hi > lo; e--) {
        const i = lo + r.int(hi - lo);
        const kind = range ? 0 : r.int(3);
        if (kind === 0) lines[i] = `${side.tag} edit ${n}.${e}`;
        else if (kind === 1) lines.splice(i, 0, `${side.tag} insert ${n}.${e}`);
        else if (lines.length > 1) lines.splice(i, 1);
      }
      replace({ markdown: lines.join('\n') });
    } else if (op === 2) {
      replace({ title: `${side.tag} title ${n}` });
    } else if (op === 3) {
      const id = `${side.tag}${++added}`;
      const parentId = r.next() < 0.2 ? null : target.id;
      tree = place(tree, { id, parentId, title: `New ${id}`, description: `by ${side.tag}`, markdown: body(id, 4), fields: { kind: 'document', hidden: false } }, r);
    } else if (op === 4) {
      const gone = subtree(tree, target.id);
      if ([...gone].every((id) => side.mayTouch(id) && side.lineRange(id, 1) === null)) tree = tree.filter((p) => !gone.has(p.id));
    } else {
      const inside = subtree(tree, target.id);
      const parents = [null, ...touchable.map((p) => p.id).filter((id) => !inside.has(id))].filter((id) => id !== target.parentId);
      // Sometimes a reorder among its siblings (never at the top level, which both sides share).
      const reorder = target.parentId !== null && side.mayTouch(target.parentId) && r.next() < 0.3;
      if (parents.length === 0 && !reorder) continue;
      const parentId = reorder ? target.parentId : r.pick(parents);
      moved.add(target.id);
      tree = place(
        tree.filter((p) => p.id !== target.id),
        { ...target, parentId },
        r,
      );
    }
  }
  return tree;
}

export const canonical = (tree: MergePage[]) => {
  const out: MergePage[] = [];
  const visit = (parentId: string | null) => {
    for (const p of tree.filter((q) => q.parentId === parentId)) {
      out.push(p);
      visit(p.id);
    }
  };
  visit(null);
  return out;
};
export const conflictKeys = (conflicts: MergeConflict[]) => conflicts.map((c) => `${c.pageId}:${c.kind}`).sort();
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Ours and theirs edit disjoint parts: each side owns whole top-level subtrees; some bodies are split by line. */
export function disjointCase(seed: number) {
  const r = rng(seed);
  const base = baseTree(r);
  const owner = new Map<string, 'o' | 't'>();
  for (const root of childIds(base, null)) {
    const side = r.next() < 0.5 ? 'o' : 't';
    for (const id of subtree(base, root)) owner.set(id, side);
  }
  const split = new Set(base.filter(() => r.next() < 0.15).map((p) => p.id));
  const sideOf = (tag: 'o' | 't'): Side => ({
    tag,
    mayTouch: (id) => (owner.get(id) ?? (id.startsWith(tag) ? tag : null)) === tag,
    lineRange: (id, lines) => {
      if (!split.has(id)) return null;
      const half = Math.floor(lines / 2);
      // One unchanged line between the halves: diff3 treats adjacent changes as one region.
      return tag === 'o' ? [0, half - 1] : [half + 1, lines];
    },
  });
  const moved = { o: new Set<string>(), t: new Set<string>() };
  const ours = edit(base, sideOf('o'), r, 1 + r.int(8), moved.o);
  // Split pages are edited by their non-owner too, by line only.
  const withSplit = (tree: MergePage[], side: Side) => edit(tree, { ...side, bodyOnly: true, mayTouch: (id) => split.has(id) && tree.some((p) => p.id === id) }, r, 1 + r.int(3));
  const theirs = withSplit(edit(base, sideOf('t'), r, 1 + r.int(8), moved.t), sideOf('t'));
  return { r, base, ours: withSplit(ours, sideOf('o')), theirs, moved };
}

/** What a correct merge of edits to disjoint parts holds, page by page. */
export function expectedPages(base: MergePage[], ours: MergePage[], theirs: MergePage[]): Map<string, MergePage> {
  const byId = (tree: MergePage[]) => new Map(tree.map((p) => [p.id, p]));
  const [b, o, t] = [byId(base), byId(ours), byId(theirs)];
  const out = new Map<string, MergePage>();
  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const [bp, op, tp] = [b.get(id), o.get(id), t.get(id)];
    if (!bp) out.set(id, (op ?? tp)!);
    else if (op && tp) {
      const pick = <K extends keyof MergePage>(k: K) => (same(op[k], bp[k]) ? tp[k] : op[k]);
      const [bl, ol, tl] = [bp, op, tp].map((p) => p.markdown!.split('\n'));
      const markdown = same(ol, bl) || same(tl, bl) ? pick('markdown') : ol!.map((line, i) => (line === bl![i] ? tl![i] : line)).join('\n');
      out.set(id, { id, parentId: pick('parentId'), title: pick('title'), description: pick('description'), markdown, fields: pick('fields') });
    }
  }
  return out;
}

/** Whether `sub` appears in `list` in the same relative order. */
export const isSubsequence = (sub: string[], list: string[]) => {
  let i = 0;
  for (const id of list) if (id === sub[i]) i++;
  return i === sub.length;
};

/**
 * A disjoint case plus one line of base, still there on both sides, for both to change: a
 * page both sides kept, and `change(tree, text)` rewriting that line. Null when the seed has
 * no such page or line (lines are unique, so both sides change the same base line).
 */
export function sameLineCase(seed: number) {
  const c = disjointCase(seed);
  const { r, base, ours, theirs } = c;
  const candidates = base.filter((p) => ours.some((q) => q.id === p.id) && theirs.some((q) => q.id === p.id));
  if (candidates.length === 0) return null;
  const target = r.pick(candidates).id;
  const lineOf = (tree: MergePage[]) => tree.find((p) => p.id === target)!.markdown!.split('\n');
  const shared = lineOf(base).filter((line) => lineOf(ours).includes(line) && lineOf(theirs).includes(line));
  if (shared.length === 0) return null;
  const line = r.pick(shared);
  const change = (tree: MergePage[], text: string) =>
    tree.map((p) => (p.id === target ? { ...p, markdown: lineOf(tree).map((l) => (l === line ? text : l)).join('\n') } : p));
  return { ...c, target, line, lineOf, change };
}
