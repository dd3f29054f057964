import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneRepository } from '../../src/domain/imports/git-clone.ts';
import { GuardedHttp, parseAllowlist } from '../../src/domain/net/guarded-http.ts';
import { serveGit, TestRepository } from '../support/git-server.ts';

// The repository's host (origin) redirects every request to another host (mirror), which
// serves the repository: the credentials given for the origin must never reach the mirror.
let git: { url: string; close(): Promise<void> };
let origin: Server;
let mirror: Server;
let originUrl: string;
const seenByOrigin: IncomingHttpHeaders[] = [];
const seenByMirror: IncomingHttpHeaders[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const repo = await TestRepository.create('docs', { 'README.md': '# Hello\n' });
  git = await serveGit(repo.root);
  mirror = createServer((req, res) => {
    seenByMirror.push(req.headers);
    const upstream = request(`${git.url}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(git.url).host } }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  const mirrorUrl = await listen(mirror);
  origin = createServer((req, res) => {
    seenByOrigin.push(req.headers);
    req.resume();
    res.writeHead(req.method === 'POST' ? 307 : 302, { location: `${mirrorUrl}${req.url}` }).end();
  });
  originUrl = await listen(origin);
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => origin.close(() => r()));
  await new Promise<void>((r) => mirror.close(() => r()));
  await git.close();
});

describe('Git credentials and redirects', () => {
  it('sends the URL’s credentials to the repository’s origin only, never to the host a redirect names', async () => {
    const http = new GuardedHttp({ allow: parseAllowlist('127.0.0.1'), timeoutMs: 20_000, maxBytes: 50 * 1024 * 1024, maxRedirects: 3, userAgent: 'test' });
    const url = originUrl.replace('http://', 'http://deploy:hunter2@') + '/docs.git';
    const cloned = await cloneRepository(http, url, 'main');
    try {
      expect(cloned.tree.paths).toEqual(['README.md']);
    } finally {
      await cloned.dispose();
    }
    expect(seenByOrigin.length).toBeGreaterThan(0);
    expect(seenByOrigin.every((h) => h.authorization === `Basic ${Buffer.from('deploy:hunter2').toString('base64')}`)).toBe(true);
    expect(seenByMirror.length).toBeGreaterThanOrEqual(2);
    expect(seenByMirror.map((h) => h.authorization ?? null)).toEqual(seenByMirror.map(() => null));
  });
});
