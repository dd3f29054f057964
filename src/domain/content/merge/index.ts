export { mergeText, type TextMergeResult } from './merge-text.ts';
export { mergeTrees } from './merge-trees.ts';
export type { MergeConflict, MergeConflictKind, MergePage, TextConflict, TreeMergeResult } from './types.ts';
export { toMergePages, toPageSpecs } from './page-model.ts';
