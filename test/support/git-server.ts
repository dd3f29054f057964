import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GIT_ENV = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.test' };

/** A Git repository with the given files, served bare under `root/<name>.git`. */
export class TestRepository {
  readonly work: string;
  readonly root: string;
  readonly name: string;

  private constructor(work: string, root: string, name: string) {
    this.work = work;
    this.root = root;
    this.name = name;
  }

  static async create(name: string, files: Record<string, string | Buffer>): Promise<TestRepository> {
    const base = await mkdtemp(join(tmpdir(), 'vellum-repo-'));
    const repo = new TestRepository(join(base, 'work'), join(base, 'served'), name);
    await mkdir(repo.work, { recursive: true });
    await run('git', ['init', '-q', '-b', 'main', repo.work]);
    await repo.commit(files, 'initial');
    await mkdir(repo.root, { recursive: true });
    await run('git', ['clone', '-q', '--bare', repo.work, join(repo.root, `${name}.git`)]);
    return repo;
  }

  /** Commits changes in the working copy and pushes them to the served repository. */
  async commit(files: Record<string, string | Buffer>, message: string): Promise<void> {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(this.work, path)), { recursive: true });
      await writeFile(join(this.work, path), content);
    }
    await run('git', ['-C', this.work, 'add', '-A']);
    await run('git', ['-C', this.work, 'commit', '-q', '-m', message], { env: { ...process.env, ...GIT_ENV } });
    if (this.root) await run('git', ['-C', this.work, 'push', '-q', join(this.root, `${this.name}.git`), 'main']).catch(() => undefined);
  }
}

/** Git's own smart-HTTP server (`git http-backend`, a CGI program) behind a loopback HTTP server. */
export async function serveGit(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method!,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        HTTP_GIT_PROTOCOL: (req.headers['git-protocol'] as string) ?? '',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString();
      let status = 200;
      for (const line of head.split('\r\n')) {
        const [k, ...rest] = line.split(':');
        const v = rest.join(':').trim();
        if (k!.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else if (k) res.setHeader(k, v);
      }
      res.statusCode = status;
      res.end(out.subarray(split + 4));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
