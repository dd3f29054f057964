import { LRUCache } from 'lru-cache';

/**
 * An LRU cache bounded by an estimate of the bytes its values hold, not by their count:
 * a count bound lets a few large values (a 50,000-page revision tree) grow the process
 * without limit. A value larger than the whole budget is not kept at all.
 */
export class ByteBudgetCache<V extends object> {
  private readonly lru: LRUCache<string, V>;

  constructor(maxBytes: number, sizeOf: (value: V) => number = estimateBytes) {
    const budget = Math.max(1, Math.floor(maxBytes));
    this.lru = new LRUCache<string, V>({
      maxSize: budget,
      maxEntrySize: budget,
      sizeCalculation: (value) => Math.max(1, Math.ceil(sizeOf(value))),
    });
  }

  get(key: string): V | undefined {
    return this.lru.get(key);
  }

  /** Keeps the value unless it alone exceeds the budget; evicts the least recently used to fit it. */
  set(key: string, value: V): void {
    this.lru.set(key, value);
  }

  get usage(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize, maxBytes: this.lru.maxSize };
  }

  clear(): void {
    this.lru.clear();
  }
}

// Sizes as V8 lays out plain data on a 64-bit heap (pointer compression off): a header
// per object or array plus a slot per property or element; strings by length and width.
const OBJECT_HEADER = 24;
const SLOT = 8;
const STRING_HEADER = 16;

/**
 * Estimated heap bytes of a plain-data value (what JSON or a database row gives): objects,
 * arrays, strings, numbers, booleans, null. Shared or repeated objects count once.
 */
export function estimateBytes(value: unknown, seen: Set<object> = new Set()): number {
  switch (typeof value) {
    case 'string':
      return STRING_HEADER + value.length * (/^[\x00-\xff]*$/.test(value) ? 1 : 2);
    case 'number':
    case 'bigint':
      return SLOT;
    case 'object': {
      if (value === null) return 0;
      if (seen.has(value)) return 0;
      seen.add(value);
      if (ArrayBuffer.isView(value)) return OBJECT_HEADER + value.byteLength;
      if (Array.isArray(value)) return value.reduce((n: number, v) => n + SLOT + estimateBytes(v, seen), OBJECT_HEADER);
      if (value instanceof Date) return OBJECT_HEADER + SLOT;
      let bytes = OBJECT_HEADER;
      for (const v of Object.values(value)) bytes += SLOT + estimateBytes(v, seen);
      return bytes;
    }
    default:
      return 0; // booleans and undefined live in the slot that holds them
  }
}
