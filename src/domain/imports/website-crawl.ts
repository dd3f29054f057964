import { parse, type HTMLElement } from 'node-html-parser';
import TurndownService from 'turndown';
import type { GuardedHttp } from '../net/guarded-http.ts';
import { OutboundError } from '../net/guarded-http.ts';

export type CrawledPage = { url: string; title: string; markdown: string };

const PAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Crawls the pages under a URL: same origin, same path prefix (the start URL's folder),
 * breadth first, at most `maxPages`. Each page's main content (<main>, <article>, or the
 * body without navigation) becomes Markdown through turndown. `shouldStop` is asked
 * between pages so a cancelled run stops promptly.
 */
export async function crawlWebsite(
  http: GuardedHttp,
  start: string,
  opts: { maxPages: number; shouldStop?: () => Promise<boolean> },
): Promise<CrawledPage[]> {
  const origin = new URL(start);
  const prefix = origin.pathname.replace(/[^/]*$/, '');
  const queue = [normalize(origin)];
  const seen = new Set(queue);
  const pages: CrawledPage[] = [];
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  while (queue.length && pages.length < opts.maxPages) {
    if (await opts.shouldStop?.()) break;
    const url = queue.shift()!;
    let res;
    try {
      res = await http.fetch(url, { maxBytes: PAGE_MAX_BYTES, headers: { accept: 'text/html' } });
    } catch (err) {
      // The start page must be reachable; a broken link further down is skipped.
      if (pages.length === 0 && err instanceof OutboundError) throw err;
      continue;
    }
    if (res.status !== 200 || !(res.headers['content-type'] ?? '').includes('text/html')) {
      if (pages.length === 0) throw new OutboundError('FETCH_ERROR', `${url} answered ${res.status} ${res.headers['content-type'] ?? ''}`.trim());
      continue;
    }
    const doc = parse(res.body.toString('utf8'));
    const main = doc.querySelector('main') ?? doc.querySelector('article') ?? doc.querySelector('body') ?? doc;
    main.querySelectorAll('nav, script, style, header, footer, noscript').forEach((n) => n.remove());
    const title = (doc.querySelector('h1')?.text || doc.querySelector('title')?.text || new URL(url).pathname).trim().slice(0, 255);
    pages.push({ url, title, markdown: turndown.turndown(main.innerHTML).trim() });
    for (const next of linksOf(doc, res.url)) {
      const u = new URL(next);
      if (u.origin !== origin.origin || !u.pathname.startsWith(prefix)) continue;
      const key = normalize(u);
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(key);
      }
    }
  }
  return pages;
}

function linksOf(doc: HTMLElement, base: string): string[] {
  return doc.querySelectorAll('a[href]').flatMap((a) => {
    try {
      return [new URL(a.getAttribute('href')!, base).toString()];
    } catch {
      return [];
    }
  });
}

/** One URL per page: no fragment, no query. */
function normalize(url: URL): string {
  const u = new URL(url);
  u.hash = '';
  u.search = '';
  return u.toString();
}
