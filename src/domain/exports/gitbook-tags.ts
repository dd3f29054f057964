/**
 * GitBook's block tags (`{% hint style="info" %}` … `{% endhint %}`, tabs, embeds) are not
 * Markdown, so before parsing: a hint's body becomes a block quote whose first paragraph is
 * a marker naming its style, a tab's title a bold line, an embed a link, and the other tags
 * (tabs, code titles, content references) are dropped. Only whole-line tags outside code
 * fences are read; anything else stays as written.
 */
export function unfoldGitbookTags(markdown: string): string {
  if (!markdown.includes('{%')) return markdown;
  const out: string[] = [];
  let depth = 0;
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const quote = '> '.repeat(depth);
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      out.push(quote + line);
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      out.push(quote + line);
      continue;
    }
    const tag = /^\s*\{%\s*(.*?)\s*%\}\s*$/.exec(line)?.[1];
    if (tag === undefined) {
      out.push(quote + line);
      continue;
    }
    const hint = /^hint\s+style="([\w-]+)"/.exec(tag);
    if (hint) {
      depth++;
      out.push(`${'> '.repeat(depth)}${hintMarker(hint[1]!)}`, '> '.repeat(depth).trimEnd());
    } else if (tag === 'endhint') {
      depth = Math.max(0, depth - 1);
      out.push('> '.repeat(depth).trimEnd());
    } else if (/^tab\s+title="([^"]*)"/.test(tag)) {
      out.push(quote + `**${/title="([^"]*)"/.exec(tag)![1]}**`, quote.trimEnd());
    } else if (/^embed\s+url="([^"]+)"/.test(tag)) {
      const url = /url="([^"]+)"/.exec(tag)![1]!;
      out.push(quote + `<${url}>`);
    }
  }
  return out.join('\n');
}

const MARKER = /^⟦hint:([\w-]+)⟧$/;

export function hintMarker(style: string): string {
  return `⟦hint:${style}⟧`;
}

/** The style of a hint marker paragraph's text, or null for any other text. */
export function hintStyleOf(text: string): string | null {
  return MARKER.exec(text.trim())?.[1] ?? null;
}
