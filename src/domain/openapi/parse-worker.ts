// Runs inside a worker thread (piscina): parsing and validating a large specification is
// CPU-bound work that would otherwise stall the event loop of the job's process.
import { validate, type Filesystem } from '@scalar/openapi-parser';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { canonicalJson, contentHash } from '../content/hashing.ts';

export type ParseTask = { task: 'parse'; path: string; text: string };
/**
 * Documents leave the thread as canonical JSON text, never as objects: cloning a large
 * parsed document back to the main thread (and serializing it there) would stall the
 * very event loop this thread exists to keep free.
 */
export type ParseOutcome = { ok: true; json: string; refs: string[] } | { ok: false; message: string };
export type ValidateTask = { task: 'validate'; entry: string; files: Record<string, string>; aliases: Record<string, string[]> };
export type ValidateOutcome = { valid: boolean; version: string | null; errors: Array<{ message: string; code?: string }>; hash: string; filesystem: string };

export default async function run(task: ParseTask | ValidateTask): Promise<ParseOutcome | ValidateOutcome> {
  return task.task === 'parse' ? parse(task) : check(task);
}

/** JSON or YAML text to a document, with the line of the first error when there is one. */
function parse({ path, text }: ParseTask): ParseOutcome {
  const trimmed = text.trimStart();
  try {
    const doc = trimmed.startsWith('{') || trimmed.startsWith('[') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
    if (!doc || typeof doc !== 'object') return { ok: false, message: `${path}: not a JSON or YAML object` };
    return { ok: true, json: canonicalJson(doc), refs: externalRefs(doc) };
  } catch (err) {
    if (err instanceof YAMLParseError) return { ok: false, message: `${path} line ${err.linePos?.[0]?.line ?? '?'}: ${err.message.split('\n')[0]}` };
    const position = /position (\d+)/.exec((err as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
    return { ok: false, message: `${path}${line ? ` line ${line}` : ''}: ${(err as Error).message}` };
  }
}

/** `$ref` values that point outside the document (file or URL), without their fragment. */
function externalRefs(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, depth: number) => {
    if (depth > 200 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1));
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) found.add(value.split('#')[0]!);
      else walk(value, depth + 1);
    }
  };
  walk(doc, 0);
  return [...found].filter(Boolean);
}

/**
 * Validates the bundle as Swagger 2.0 or OpenAPI 3.0/3.1. Files are given to the parser
 * under every `$ref` string that reached them, which is how it matches references.
 */
async function check({ entry, files: texts, aliases }: ValidateTask): Promise<ValidateOutcome> {
  const paths = Object.keys(texts).sort();
  // The bundle's canonical text (paths in order) is both what is hashed and what is stored.
  const filesystem = `{${paths.map((p) => `${JSON.stringify(p)}:${texts[p]}`).join(',')}}`;
  const hash = contentHash(`${JSON.stringify(entry)}\n${filesystem}`);
  const files = Object.fromEntries(paths.map((p) => [p, JSON.parse(texts[p]!) as unknown]));
  const root = files[entry] as Record<string, unknown> | undefined;
  const declared = typeof root?.openapi === 'string' ? root.openapi : typeof root?.swagger === 'string' ? root.swagger : null;
  if (!declared || !/^(2\.0|3\.0\.\d+|3\.1\.\d+)$/.test(declared)) {
    return { valid: false, version: null, hash, filesystem, errors: [{ message: `${entry}: not an OpenAPI document (expected swagger: "2.0" or openapi: 3.0.x / 3.1.x)` }] };
  }
  const scalarFiles: Filesystem = Object.entries(files).flatMap(([path, doc]) =>
    [path, ...(aliases[path] ?? [])].map((filename) => ({
      dir: '',
      filename,
      isEntrypoint: path === entry && filename === path,
      references: externalRefs(doc),
      specification: doc as Record<string, unknown>,
    })),
  );
  const result = await validate(scalarFiles);
  const errors = (result.errors ?? []).slice(0, 50).map((e) => {
    const pointer = Array.isArray(e.path) ? `/${e.path.join('/')}` : e.path;
    return { message: pointer ? `${pointer}: ${e.message}` : e.message, ...(e.code ? { code: String(e.code) } : {}) };
  });
  return { valid: result.valid, version: declared, errors, hash, filesystem };
}
