import { diff3Merge } from 'node-diff3';
import type { TextConflict } from './types.ts';

export type TextMergeResult = { merged: string } | { conflict: TextConflict[] };

/**
 * Line-based three-way merge. Lines are split on '\n' only (node-diff3 would otherwise split
 * strings on any whitespace), so joining the merged lines gives back every byte untouched.
 * Identical changes on both sides are not conflicts (diff3Merge excludes false conflicts).
 */
export function mergeText(base: string, ours: string, theirs: string): TextMergeResult {
  if (ours === theirs || theirs === base) return { merged: ours };
  if (ours === base) return { merged: theirs };
  const regions = diff3Merge<string>(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  const conflict: TextConflict[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      conflict.push({ oursLines: region.conflict.a, theirsLines: region.conflict.b, baseLines: region.conflict.o });
    }
  }
  return conflict.length ? { conflict } : { merged: lines.join('\n') };
}
