import { BadRequestError } from '../../domain/shared/errors.ts';

/**
 * Deepest nesting of arrays and objects a request may send. Rich-text documents nest
 * about two levels per block (node → nodes), so this leaves room for any real document
 * while refusing the thousands of levels that would blow a recursive walk (zod, the
 * jsonb encoder, a presenter) into a 500.
 */
export const MAX_INPUT_DEPTH = 128;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses, with a 400 naming where, input PostgreSQL cannot store or our code cannot
 * walk: NUL characters (text and jsonb refuse them), lone UTF-16 surrogates (jsonb
 * refuses their `\uD800` escapes) and nesting deeper than MAX_INPUT_DEPTH. Checked at
 * every depth, keys included, iteratively so the check itself cannot overflow the stack.
 */
export function assertStorableInput(value: unknown, where: string): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: where, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      assertStorableText(item.value, item.path);
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_INPUT_DEPTH) throw new BadRequestError(`${item.path}: nested deeper than ${MAX_INPUT_DEPTH} levels`);
    for (const [key, child] of Object.entries(item.value)) {
      const path = `${item.path}.${key}`;
      assertStorableText(key, path);
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
}

function assertStorableText(text: string, path: string) {
  if (text.includes('\u0000')) throw new BadRequestError(`${printable(path)}: text must not contain NUL (\\u0000) characters`);
  if (LONE_SURROGATE.test(text)) throw new BadRequestError(`${printable(path)}: text must be valid Unicode (it holds a lone UTF-16 surrogate)`);
}

/** The path names keys the client chose; the message must stay storable and readable itself. */
function printable(path: string): string {
  const clean = path.replace(/\u0000/g, '\\u0000').replace(new RegExp(LONE_SURROGATE, 'g'), '\\uFFFD');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
