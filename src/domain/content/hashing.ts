import { createHash } from 'node:crypto';

/** 43-character base64url SHA-256: the key of every content-addressed row. */
export function contentHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** JSON with keys sorted at every level, so equal content always hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** URL-friendly form of a title, as GitBook makes page slugs. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || 'page';
}
