import { describe, expect, it } from 'vitest';
import { mergeTrees, type MergePage } from '../../src/domain/content/merge/index.ts';
import { baseTree, canonical, childIds, conflictKeys, disjointCase, edit, expectedPages, isSubsequence, rng, sameLineCase, type Side } from '../support/merge-generators.ts';

/**
 * Random edits on both sides of a ~30-page tree with multi-line bodies. Each case is seeded, so
 * a failure names the seed that reproduces it. The oracle is derived from the three trees
 * alone: every page, field and line ends up as the side that changed it left it, or as base.
 */
const CASES = 300;

describe('mergeTrees properties', () => {
  it('merging a side with itself, or with an untouched side, gives that side', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const r = rng(seed);
      const base = baseTree(r);
      const any: Side = { tag: 'x', mayTouch: () => true, lineRange: () => null };
      const side = edit(base, any, r, 1 + r.int(10));
      const want = { result: 'merged', pages: canonical(side) };
      expect(mergeTrees(base, side, side), `seed ${seed}`).toEqual(want);
      expect(mergeTrees(base, side, base), `seed ${seed}`).toEqual(want);
      expect(mergeTrees(base, base, side), `seed ${seed}`).toEqual(want);
    }
  });

  it('merges edits to disjoint pages and lines with no edit lost and no phantom edit', () => {
    let bothEditedOnePage = 0;
    let bothMoved = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const { base, ours, theirs, moved } = disjointCase(seed);
      const result = mergeTrees(base, ours, theirs);
      if (result.result !== 'merged') throw new Error(`seed ${seed}: ${JSON.stringify(result.conflicts)}`);
      const want = expectedPages(base, ours, theirs);
      const got = new Map(result.pages.map((p) => [p.id, p]));
      expect([...got.keys()].sort(), `seed ${seed}`).toEqual([...want.keys()].sort());
      for (const [id, page] of want) expect(got.get(id), `seed ${seed} page ${id}`).toEqual(page);
      // Each side's sibling order survives among the pages that stay under that parent and
      // that the other side did not move.
      for (const parentId of [null, ...got.keys()]) {
        const merged = childIds(result.pages, parentId);
        for (const [side, movedByOther] of [[ours, moved.t], [theirs, moved.o]] as const) {
          const kept = childIds(side, parentId).filter((id) => got.get(id)?.parentId === parentId && !movedByOther.has(id));
          expect(isSubsequence(kept, merged), `seed ${seed} order under ${parentId}`).toBe(true);
        }
      }
      expect(result.pages, `seed ${seed}: output is in tree order`).toEqual(canonical(result.pages));
      const changed = (tree: MergePage[], p: MergePage) => tree.some((q) => q.id === p.id && q.markdown !== p.markdown);
      if (base.some((p) => changed(ours, p) && changed(theirs, p))) bothEditedOnePage++;
      if (moved.o.size && moved.t.size) bothMoved++;
    }
    // The generator must really produce what the property is about.
    expect(bothEditedOnePage).toBeGreaterThan(CASES / 4);
    expect(bothMoved).toBeGreaterThan(CASES / 10);
  });

  it('reports a conflict naming the page exactly when both sides change the same line differently', () => {
    let checked = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const found = sameLineCase(seed);
      if (!found) continue;
      const { base, ours, theirs, target, line, lineOf, change } = found;
      checked++;
      const result = mergeTrees(base, change(ours, 'ours says this'), change(theirs, 'theirs says that'));
      expect(result.result === 'conflicts' && conflictKeys(result.conflicts), `seed ${seed}`).toEqual([`${target}:content`]);
      // The same line changed the same way on both sides is no conflict (when nothing next to it
      // changed: diff3 takes adjacent changes as one region).
      const around = (tree: MergePage[]) => {
        const [lines, b] = [lineOf(tree), lineOf(base)];
        const near = (l: string[], i: number) => l.slice(Math.max(0, i - 1), i + 2).join('\n');
        return near(lines, lines.indexOf(line)) === near(b, b.indexOf(line));
      };
      if (around(ours) && around(theirs)) {
        expect(mergeTrees(base, change(ours, 'agreed'), change(theirs, 'agreed')).result, `seed ${seed}`).toBe('merged');
      }
    }
    expect(checked).toBeGreaterThan(CASES * 0.8);
  });

  it('detects the same conflicts whichever side is ours', () => {
    let conflicted = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const r = rng(seed);
      const base = baseTree(r);
      const ours = edit(base, { tag: 'o', mayTouch: () => true, lineRange: () => null }, r, 1 + r.int(10));
      const theirs = edit(base, { tag: 't', mayTouch: () => true, lineRange: () => null }, r, 1 + r.int(10));
      const forward = mergeTrees(base, ours, theirs);
      const backward = mergeTrees(base, theirs, ours);
      expect(backward.result, `seed ${seed}`).toBe(forward.result);
      if (forward.result === 'conflicts' && backward.result === 'conflicts') {
        conflicted++;
        expect(conflictKeys(backward.conflicts), `seed ${seed}`).toEqual(conflictKeys(forward.conflicts));
      } else if (forward.result === 'merged' && backward.result === 'merged') {
        const fields = (pages: MergePage[]) => [...pages].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(fields(backward.pages), `seed ${seed}`).toEqual(fields(forward.pages));
      }
    }
    // Unrestricted edits must actually exercise the conflict paths.
    expect(conflicted).toBeGreaterThan(CASES / 10);
  });
});
