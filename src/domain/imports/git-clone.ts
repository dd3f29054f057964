import git, { type GitHttpRequest, type GitHttpResponse, type HttpClient } from 'isomorphic-git';
import * as fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { GuardedHttp } from '../net/guarded-http.ts';
import { OutboundError, withoutCredentials } from '../net/guarded-http.ts';
import { redactUrl } from '../net/redact.ts';
import type { FileTree } from './git-layout.ts';

const MAX_REPO_BYTES = 500 * 1024 * 1024;
const MAX_FILES = 20_000;

/**
 * isomorphic-git speaks Git's smart HTTP through the guarded client, so a repository URL
 * (and every redirect) is held to the same rules as any other outbound request; a git
 * binary resolving hosts by itself would not be.
 */
function guardedGitHttp(http: GuardedHttp, repositoryUrl: string): HttpClient {
  const origin = new URL(repositoryUrl).origin;
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      let body: Buffer | undefined;
      if (req.body) {
        const parts: Uint8Array[] = [];
        for await (const chunk of req.body) parts.push(chunk);
        body = Buffer.concat(parts);
      }
      const method = (req.method ?? 'GET').toUpperCase() as 'GET' | 'POST';
      // isomorphic-git adds the URL's credentials to every request, also to the host a
      // redirect named; they belong to the repository's origin only.
      const headers = new URL(req.url).origin === origin ? (req.headers ?? {}) : (withoutCredentials(req.headers) ?? {});
      const res = await http.fetch(req.url, { method, headers, ...(body ? { body } : {}), maxBytes: MAX_REPO_BYTES });
      return {
        url: res.url,
        method,
        statusCode: res.status,
        statusMessage: String(res.status),
        headers: res.headers,
        body: (async function* () {
          yield new Uint8Array(res.body);
        })(),
      };
    },
  };
}

export type ClonedRepository = { tree: FileTree; oid: string; message: string; dispose(): Promise<void> };

/** A shallow clone (depth 1, one branch) of `ref` into a temporary folder. */
export async function cloneRepository(http: GuardedHttp, url: string, ref: string): Promise<ClonedRepository> {
  const dir = await mkdtemp(join(tmpdir(), 'vellum-git-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const branch = ref.replace(/^refs\/heads\//, '');
    await git.clone({ fs, http: guardedGitHttp(http, url), dir, url, ref: branch, singleBranch: true, depth: 1, noTags: true });
    const oid = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    const { commit } = await git.readCommit({ fs, dir, oid });
    const paths = await listFiles(dir);
    return {
      oid,
      message: commit.message.trim().slice(0, 1000),
      dispose,
      tree: {
        paths,
        read: async (path) => (paths.includes(path) ? readFile(join(dir, ...path.split('/'))) : null),
      },
    };
  } catch (err) {
    await dispose();
    if (err instanceof OutboundError) throw err;
    throw new OutboundError('FETCH_ERROR', `Could not clone ${redactUrl(url)} at ${ref}: ${(err as Error).message}`);
  }
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && (await stat(full)).size >= 0) out.push(relative(root, full).split(sep).join('/'));
      if (out.length > MAX_FILES) throw new OutboundError('TOO_LARGE', `The repository has more than ${MAX_FILES} files`);
    }
  };
  await walk(root);
  return out.sort();
}
