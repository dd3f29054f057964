import type { ServerResponse } from 'node:http';

/**
 * A website a crawl takes seconds over: a start page linking `pages` pages, each answered
 * after `delayMs`. Tests count its hits to act while a crawl is under way (cancel it, kill
 * the worker running it).
 */
export class SlowSite {
  hits = 0;
  readonly pages: number;
  readonly delayMs: number;
  constructor(pages = 10, delayMs = 250) {
    this.pages = pages;
    this.delayMs = delayMs;
  }

  serve(url: string, res: ServerResponse): void {
    this.hits++;
    const links = Array.from({ length: this.pages }, (_, i) => `<a href="p${i}.html">${i}</a>`).join(' ');
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main><h1>${url}</h1>${links}</main></body></html>`), this.delayMs);
  }
}
