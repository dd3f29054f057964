import type { FetchState, ProcessErrorCode } from '../entities/openapi-spec.entity.ts';
import { OutboundError, type GuardedHttp } from '../net/guarded-http.ts';
import { parseInWorker } from './parse-pool.ts';

export type BundleLimits = { maxFiles: number; maxFileBytes: number; maxTotalBytes: number; timeoutMs: number };
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = { maxFiles: 50, maxFileBytes: 20 * 1024 * 1024, maxTotalBytes: 50 * 1024 * 1024, timeoutMs: 30_000 };

export type Problem = { message: string; code?: string };
/** Files by path, each as canonical JSON text (see parse-worker). */
export type Bundle = { entry: string; files: Record<string, string>; aliases: Record<string, string[]>; fetchState: FetchState };
export type BundleResult = { kind: 'unchanged' } | ({ kind: 'loaded' } & Bundle) | { kind: 'failed'; code: ProcessErrorCode; errors: Problem[] };

class BundleError extends Error {
  readonly code: ProcessErrorCode;
  constructor(code: ProcessErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Loads a specification and every file its external `$ref`s reach (relative paths and
 * URLs, resolved against the file that names them), all through the guarded client and
 * within count and size caps. Local files are never read. With the ETag/Last-Modified of
 * the previous run, a source whose every file answers 304 is reported unchanged before
 * anything is parsed.
 */
export async function loadBundle(http: GuardedHttp, source: { url: string } | { text: string }, previous: FetchState, limits = DEFAULT_BUNDLE_LIMITS): Promise<BundleResult> {
  try {
    if ('url' in source && (await allUnchanged(http, previous, limits))) return { kind: 'unchanged' };
    return { kind: 'loaded', ...(await load(http, source, limits)) };
  } catch (err) {
    if (err instanceof BundleError) return { kind: 'failed', code: err.code, errors: [{ message: err.message }] };
    if (err instanceof OutboundError) return { kind: 'failed', code: err.code === 'FETCH_TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', errors: [{ message: err.message, code: err.code }] };
    throw err;
  }
}

async function allUnchanged(http: GuardedHttp, previous: FetchState, limits: BundleLimits): Promise<boolean> {
  const urls = Object.keys(previous);
  if (urls.length === 0) return false;
  for (const url of urls) {
    const { etag, lastModified } = previous[url]!;
    if (!etag && !lastModified) return false;
    const headers: Record<string, string> = {};
    if (etag) headers['if-none-match'] = etag;
    if (lastModified) headers['if-modified-since'] = lastModified;
    const res = await http.fetch(url, { headers, timeoutMs: limits.timeoutMs, maxBytes: limits.maxFileBytes }).catch(() => null);
    if (res?.status !== 304) return false;
  }
  return true;
}

async function load(http: GuardedHttp, source: { url: string } | { text: string }, limits: BundleLimits): Promise<Bundle> {
  const files: Record<string, string> = {};
  const aliases: Record<string, string[]> = {};
  const fetchState: FetchState = {};
  let total = 0;
  const base = 'url' in source ? new URL('.', source.url).toString() : null;
  const keyOf = (url: string) => (base && url.startsWith(base) ? url.slice(base.length) : url);

  const parse = async (path: string, text: string) => {
    const outcome = await parseInWorker({ path, text });
    if (!outcome.ok) throw new BundleError('PARSE_ERROR', outcome.message);
    return outcome;
  };
  const download = async (url: string) => {
    const res = await http.fetch(url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxFileBytes, headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
    if (res.status !== 200) throw new BundleError('FETCH_ERROR', `${url} answered ${res.status}`);
    total += res.body.length;
    if (total > limits.maxTotalBytes) throw new BundleError('FETCH_ERROR', `The specification and its references exceed ${limits.maxTotalBytes} bytes`);
    fetchState[url] = { ...(res.headers.etag ? { etag: res.headers.etag } : {}), ...(res.headers['last-modified'] ? { lastModified: res.headers['last-modified'] } : {}) };
    return res.body.toString('utf8');
  };

  const entryUrl = 'url' in source ? source.url : null;
  const entry = entryUrl ? keyOf(entryUrl) : 'openapi';
  const queue: Array<{ url: string | null; text: string | null }> = [{ url: entryUrl, text: 'text' in source ? source.text : null }];
  const seen = new Set<string>(entryUrl ? [entryUrl] : []);
  while (queue.length) {
    const next = queue.shift()!;
    const text = next.text ?? (await download(next.url!));
    const path = next.url ? keyOf(next.url) : entry;
    const parsed = await parse(path, text);
    files[path] = parsed.json;
    for (const ref of parsed.refs) {
      const target = resolveRef(ref, next.url, path);
      const names = (aliases[keyOf(target)] ??= []);
      if (!names.includes(ref)) names.push(ref);
      if (seen.has(target)) continue;
      seen.add(target);
      if (seen.size > limits.maxFiles) throw new BundleError('FETCH_ERROR', `The specification references more than ${limits.maxFiles} files`);
      queue.push({ url: target, text: null });
    }
  }
  return { entry, files, aliases, fetchState };
}

/** A `$ref` as an absolute http(s) URL, relative to the file that holds it; nothing else is followed. */
function resolveRef(ref: string, from: string | null, path: string): string {
  let url: URL;
  try {
    url = from ? new URL(ref, from) : new URL(ref);
  } catch {
    throw new BundleError('PARSE_ERROR', `${path}: $ref "${ref}" cannot be resolved${from ? '' : ' (a specification given as text can only reference absolute URLs)'}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BundleError('PARSE_ERROR', `${path}: $ref "${ref}" is not an http(s) reference; local files are never read`);
  url.hash = '';
  return url.toString();
}
