import { describe, expect, it } from 'vitest';
import { mergeText } from '../../src/domain/content/merge/index.ts';

const lines = (...l: string[]) => l.join('\n');

describe('mergeText', () => {
  const base = lines('# Title', '', 'one', 'two', 'three', 'four', 'five', '');

  it('keeps edits to different parts of one page from both sides', () => {
    const ours = lines('# Title', '', 'ONE', 'two', 'three', 'four', 'five', '');
    const theirs = lines('# Title', '', 'one', 'two', 'three', 'four', 'FIVE', 'six', '');
    expect(mergeText(base, ours, theirs)).toEqual({ merged: lines('# Title', '', 'ONE', 'two', 'three', 'four', 'FIVE', 'six', '') });
  });

  it('takes the changed side when only one side changed', () => {
    const ours = lines('# Title', '', 'one', 'changed', 'three', 'four', 'five', '');
    expect(mergeText(base, ours, base)).toEqual({ merged: ours });
    expect(mergeText(base, base, ours)).toEqual({ merged: ours });
  });

  it('does not treat the same change on both sides as a conflict', () => {
    const both = lines('# Title', '', 'one', 'TWO', 'three', 'four', 'five', '');
    const ours = lines('# Title', '', 'one', 'TWO', 'three', 'four', 'five!', '');
    expect(mergeText(base, ours, both)).toEqual({ merged: ours });
  });

  it('reports both sides changing the same line differently, with the lines of each', () => {
    const ours = lines('# Title', '', 'one', 'ours', 'three', 'four', 'five', '');
    const theirs = lines('# Title', '', 'one', 'theirs', 'three', 'four', 'five', '');
    expect(mergeText(base, ours, theirs)).toEqual({ conflict: [{ oursLines: ['ours'], theirsLines: ['theirs'], baseLines: ['two'] }] });
  });

  it('splits on newlines only, so whitespace inside lines is kept byte for byte', () => {
    const b = lines('a  b\tc', 'keep', 'x y');
    expect(mergeText(b, lines('a  b\tc!', 'keep', 'x y'), lines('a  b\tc', 'keep', 'x  y'))).toEqual({ merged: lines('a  b\tc!', 'keep', 'x  y') });
  });
});
