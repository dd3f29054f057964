export type Variables = Record<string, string | number | boolean>;

/** `{{ space.vars.name }}` and `{{ page.vars.name }}`: the expressions pages may embed. */
const EXPRESSION = /\{\{\s*([a-z]+)\.vars\.([A-Za-z0-9_-]+)\s*\}\}/g;
const ANY_EXPRESSION = /\{\{\s*[^{}]*?\s*\}\}/g;

/**
 * Substitutes variables in a page's Markdown. `deterministic-only` replaces only what
 * depends on the content itself (space and page variables) and leaves everything else —
 * say, visitor claims — as written; `true` also blanks expressions it cannot evaluate.
 */
export function evaluate(markdown: string, vars: { space: Variables; page: Variables }, mode: true | 'deterministic-only'): string {
  const replaced = markdown.replace(EXPRESSION, (whole, scope: string, name: string) => {
    const source = scope === 'space' ? vars.space : scope === 'page' ? vars.page : undefined;
    const value = source?.[name];
    return value === undefined ? whole : String(value);
  });
  return mode === true ? replaced.replace(ANY_EXPRESSION, '') : replaced;
}
