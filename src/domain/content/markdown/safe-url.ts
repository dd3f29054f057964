const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * A link target that is safe to hand to anything that may render it: web, mail or relative
 * (paths, anchors). `javascript:`, `data:`, `vbscript:` and every other scheme are not.
 * Browsers drop tabs, newlines and other control characters from a URL before reading its
 * scheme (`java\tscript:`), so a URL holding any is refused as well.
 */
export function safeLinkUrl(raw: string): string | undefined {
  const url = raw.trim();
  if (/[\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || SAFE_SCHEMES.has(scheme) ? url : undefined;
}
