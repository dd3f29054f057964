import { describe, expect, it } from 'vitest';
import { DEFAULT_ICON, describeCluster, iconOf } from '../../src/domain/conversations/describe-cluster.ts';
import { matchClusters } from '../../src/domain/conversations/match-clusters.ts';

describe('cluster descriptions', () => {
  it('label the most distinctive terms, summarize with representative titles, pick the icon by topic', () => {
    const d = describeCluster(['card payment', 'declined', 'shop', 'online'], ['My card payment was declined at the shop?', 'Card declined when paying online?']);
    expect(d.label).toBe('Card payment, declined, shop');
    expect(d.summary).toBe('Customers ask about card payment, declined, shop, for example “My card payment was declined at the shop?” and “Card declined when paying online?”.');
    expect(d.icon).toBe('credit-card');
    expect(d.icon.length).toBeLessThanOrEqual(50);
  });

  it('fall back to a title for the label and to the default icon when nothing is distinctive or known', () => {
    const d = describeCluster([], ['Which tuba mouthpiece suits jazz?']);
    expect(d.label).toBe('Which tuba mouthpiece suits jazz?');
    expect(d.icon).toBe(DEFAULT_ICON);
    expect(describeCluster(['a'.repeat(70)], ['x']).label.length).toBeLessThanOrEqual(60);
  });

  it('choose the icon by the earliest word a topic names, prefixes from five letters', () => {
    expect(iconOf(['exporting reports', 'password'])).toBe('file-export');
    expect(iconOf(['password', 'exporting reports'])).toBe('key');
    expect(iconOf(['cardigan'])).toBe(DEFAULT_ICON); // "card" is a whole word (or "cards") only
    expect(iconOf(['two cards'])).toBe('credit-card');
  });
});

describe('matching new clusters to old ones', () => {
  const a = (xs: number[]) => Int32Array.from(xs);
  it('keeps the old id of the cluster sharing most members, each old id once', () => {
    // Old X split into new 0 (3 of its 4) and new 1 (1 of 4, with two new issues); old Y became new 2.
    const previous = ['X', 'X', 'X', 'X', null, null, 'Y', 'Y'];
    expect(matchClusters(a([0, 0, 0, 1, 1, 1, 2, 2]), 3, previous)).toEqual(['X', null, 'Y']);
  });

  it('gives a new id below the minimum overlap', () => {
    // Old Z's one member joins a cluster of nine new issues: Jaccard 0.1.
    expect(matchClusters(a([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 1, ['Z', null, null, null, null, null, null, null, null, null])).toEqual([null]);
  });
});
