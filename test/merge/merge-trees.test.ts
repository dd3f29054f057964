import { describe, expect, it } from 'vitest';
import { mergeTrees, type MergePage } from '../../src/domain/content/merge/index.ts';

const page = (id: string, parentId: string | null, extra: Partial<MergePage> = {}): MergePage => ({
  id,
  parentId,
  title: `Title ${id}`,
  description: null,
  markdown: `# ${id}\n\nfirst\nsecond\nthird\n`,
  fields: { kind: 'document', hidden: false },
  ...extra,
});

// a ── a1, a2, a3 ; b ── b1 ; c
const base: MergePage[] = [
  page('a', null),
  page('a1', 'a'),
  page('a2', 'a'),
  page('a3', 'a'),
  page('b', null),
  page('b1', 'b'),
  page('c', null),
];
const edit = (tree: MergePage[], id: string, change: Partial<MergePage>) => tree.map((p) => (p.id === id ? { ...p, ...change } : p));
const without = (tree: MergePage[], ...ids: string[]) => tree.filter((p) => !ids.includes(p.id));
const ids = (tree: MergePage[]) => tree.map((p) => `${p.parentId ?? '-'}/${p.id}`);

function merged(b: MergePage[], o: MergePage[], t: MergePage[]): MergePage[] {
  const result = mergeTrees(b, o, t);
  if (result.result !== 'merged') throw new Error(`expected a merge, got ${JSON.stringify(result.conflicts)}`);
  return result.pages;
}
function conflicts(b: MergePage[], o: MergePage[], t: MergePage[]) {
  const result = mergeTrees(b, o, t);
  if (result.result !== 'conflicts') throw new Error('expected conflicts');
  return result.conflicts.map((c) => [c.pageId, c.kind]);
}

describe('mergeTrees: fields', () => {
  it('takes a field changed on one side and combines different fields changed on both', () => {
    const ours = edit(base, 'a1', { title: 'New title' });
    const theirs = edit(base, 'a1', { description: 'New description', fields: { kind: 'document', hidden: true } });
    expect(merged(base, ours, theirs).find((p) => p.id === 'a1')).toEqual(
      page('a1', 'a', { title: 'New title', description: 'New description', fields: { kind: 'document', hidden: true } }),
    );
  });

  it('merges bodies line by line', () => {
    const ours = edit(base, 'b1', { markdown: '# b1\n\nFIRST\nsecond\nthird\n' });
    const theirs = edit(base, 'b1', { markdown: '# b1\n\nfirst\nsecond\nTHIRD\n' });
    expect(merged(base, ours, theirs).find((p) => p.id === 'b1')!.markdown).toBe('# b1\n\nFIRST\nsecond\nTHIRD\n');
  });

  it('reports each field changed differently on both sides, and changes nothing', () => {
    const ours = edit(base, 'a1', { title: 'Ours', description: 'd1', markdown: '# a1\n\nfirst\nOURS\nthird\n', fields: { kind: 'group', hidden: true } });
    const theirs = edit(base, 'a1', { title: 'Theirs', description: 'd2', markdown: '# a1\n\nfirst\nTHEIRS\nthird\n', fields: { kind: 'link', hidden: false } });
    const result = mergeTrees(base, ours, theirs);
    expect(result).toMatchObject({ result: 'conflicts' });
    expect('pages' in result).toBe(false);
    expect(conflicts(base, ours, theirs)).toEqual([
      ['a1', 'content'],
      ['a1', 'description'],
      ['a1', 'field'],
      ['a1', 'title'],
    ]);
  });

  it('names the conflicting lines of a content conflict', () => {
    const ours = edit(base, 'c', { markdown: '# c\n\nfirst\nOURS\nthird\n' });
    const theirs = edit(base, 'c', { markdown: '# c\n\nfirst\nTHEIRS\nthird\n' });
    const result = mergeTrees(base, ours, theirs);
    expect(result.result === 'conflicts' && result.conflicts[0]!.hunks).toEqual([{ oursLines: ['OURS'], theirsLines: ['THEIRS'], baseLines: ['second'] }]);
  });

  it('accepts the same change made on both sides', () => {
    const both = edit(base, 'c', { title: 'Same', markdown: 'same\n' });
    expect(merged(base, both, both)).toEqual(both);
  });
});

describe('mergeTrees: added and removed pages', () => {
  it('keeps pages added on either side', () => {
    const ours = [...base, page('n1', 'b')];
    const theirs = [...base, page('n2', null)];
    expect(ids(merged(base, ours, theirs))).toEqual(['-/a', 'a/a1', 'a/a2', 'a/a3', '-/b', 'b/b1', 'b/n1', '-/c', '-/n2']);
  });

  it('removes a page removed on one side and untouched on the other, with its subtree', () => {
    expect(ids(merged(base, without(base, 'b', 'b1'), base))).toEqual(['-/a', 'a/a1', 'a/a2', 'a/a3', '-/c']);
    expect(ids(merged(base, edit(base, 'c', { title: 'x' }), without(base, 'a2')))).toEqual(['-/a', 'a/a1', 'a/a3', '-/b', 'b/b1', '-/c']);
  });

  it('reports a page removed on one side and edited (or moved) on the other', () => {
    expect(conflicts(base, without(base, 'a2'), edit(base, 'a2', { markdown: 'edited' }))).toEqual([['a2', 'delete-edit']]);
    expect(conflicts(base, edit(base, 'b1', { parentId: 'c' }), without(base, 'b', 'b1'))).toEqual([['b1', 'delete-edit']]);
  });

  it('reports the same id added on both sides with different content', () => {
    expect(conflicts(base, [...base, page('n', null)], [...base, page('n', null, { title: 'other' })])).toEqual([['n', 'add-add']]);
  });

  it('reports a page added or moved under a parent the other side removed', () => {
    expect(conflicts(base, [...base, page('n', 'b')], without(base, 'b', 'b1'))).toEqual([['n', 'parent-removed']]);
    expect(conflicts(base, edit(base, 'c', { parentId: 'b' }), without(base, 'b', 'b1'))).toEqual([['c', 'parent-removed']]);
  });
});

describe('mergeTrees: moves and order', () => {
  it('moves a page moved on one side, keeping the other side edits to it', () => {
    const ours = edit(base, 'a2', { parentId: 'b' });
    const theirs = edit(base, 'a2', { title: 'Retitled' });
    const out = merged(base, ours, theirs);
    // Ours lists a2 before b1 under its new parent.
    expect(ids(out)).toEqual(['-/a', 'a/a1', 'a/a3', '-/b', 'b/a2', 'b/b1', '-/c']);
    expect(out.find((p) => p.id === 'a2')!.title).toBe('Retitled');
  });

  it('reports a page moved to different parents on both sides', () => {
    expect(conflicts(base, edit(base, 'a2', { parentId: 'b' }), edit(base, 'a2', { parentId: 'c' }))).toEqual([['a2', 'move']]);
  });

  it('reports moves that together would put a page inside itself', () => {
    expect(conflicts(base, edit(base, 'a', { parentId: 'b1' }), edit(base, 'b', { parentId: 'a3' }))).toEqual([
      ['a', 'cycle'],
      ['a3', 'cycle'],
      ['b', 'cycle'],
      ['b1', 'cycle'],
    ]);
  });

  it('takes a reorder from one side and places the other side additions after their preceding sibling', () => {
    const reorder = (tree: MergePage[], order: string[]) => [...tree].sort((x, y) => order.indexOf(x.id) - order.indexOf(y.id));
    const ours = reorder(base, ['a', 'a3', 'a1', 'a2', 'b', 'b1', 'c']);
    const theirs = [...base.slice(0, 2), page('n', 'a'), ...base.slice(2)];
    expect(ids(merged(base, ours, theirs))).toEqual(['-/a', 'a/a3', 'a/a1', 'a/n', 'a/a2', '-/b', 'b/b1', '-/c']);
    expect(ids(merged(base, theirs, ours))).toEqual(['-/a', 'a/a3', 'a/a1', 'a/n', 'a/a2', '-/b', 'b/b1', '-/c']);
  });

  it('anchors an addition to a sibling the other side did not move', () => {
    // Ours moves c to the front; theirs adds n at the end, after c: n stays after a and b.
    const roots = (order: string[]) => order.map((id) => page(id, null));
    expect(ids(merged(roots(['a', 'b', 'c']), roots(['c', 'a', 'b']), roots(['a', 'b', 'c', 'n'])))).toEqual(['-/c', '-/a', '-/b', '-/n']);
  });

  it('keeps ours first when both sides add at the same place', () => {
    const ours = [...base, page('o', null)];
    const theirs = [...base, page('t', null)];
    expect(ids(merged(base, ours, theirs)).slice(-2)).toEqual(['-/o', '-/t']);
  });

  it('reports siblings reordered differently on both sides', () => {
    const reorder = (order: string[]) => [...base].sort((x, y) => order.indexOf(x.id) - order.indexOf(y.id));
    const ours = reorder(['a', 'a2', 'a1', 'a3', 'b', 'b1', 'c']);
    const theirs = reorder(['a', 'a1', 'a3', 'a2', 'b', 'b1', 'c']);
    expect(conflicts(base, ours, theirs)).toEqual([
      ['a1', 'order'],
      ['a2', 'order'],
      ['a3', 'order'],
    ]);
    expect(ids(merged(base, ours, ours))).toEqual(ids(ours));
  });
});

describe('mergeTrees: size', () => {
  it('merges a flat space of 20,000 pages with thousands of additions on both sides quickly', () => {
    const flat = Array.from({ length: 20_000 }, (_, i) => page(`p${i}`, null, { markdown: null }));
    const ours = flat.flatMap((p, i) => (i % 5 === 0 ? [p, page(`o${i}`, null, { markdown: null })] : [p]));
    const theirs = flat.flatMap((p, i) => (i % 7 === 0 ? [p, page(`t${i}`, null, { markdown: null })] : [p]));
    const started = performance.now();
    const out = merged(flat, ours, theirs);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(out.length).toBe(20_000 + 4_000 + 2_858);
    expect(out.slice(0, 4).map((p) => p.id)).toEqual(['p0', 'o0', 't0', 'p1']);
  });
});
