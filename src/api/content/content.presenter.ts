import type { ChangeRequestBody } from '../change-requests/change-requests.presenter.ts';
import type { FileEntry } from '../../domain/entities/file-entry.entity.ts';
import type { Revision } from '../../domain/entities/revision.entity.ts';
import type { TreePage } from '../../domain/content/revision-reader.ts';
import type { UrlSigner } from '../../domain/storage/signed-urls.ts';
import type { Urls } from '../http/urls.ts';

export type ContentContext = { spaceId: string; urls: Urls; metadata: boolean };
export type FileContext = { urls: Urls; signer: UrlSigner; ttlSeconds: number; now: number; metadata: boolean };

const DEFAULT_LAYOUT = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

/** A page of the tree as GitBook shows it; `body` adds the text for single-page reads. */
export function presentPage(page: TreePage, ctx: ContentContext, body?: { markdown?: string; document?: unknown }): Record<string, unknown> {
  const n = page.node;
  const common = { id: n.pageId, title: n.title, ...(n.emoji ? { emoji: n.emoji } : {}) };
  if (n.kind === 'link') {
    return { ...common, kind: 'link', type: 'link', target: n.linkTarget, ...(n.linkTarget?.kind === 'url' ? { href: n.linkTarget.url } : {}), ...(n.hidden ? { hidden: true } : {}) };
  }
  const pages = page.children.map((c) => presentPage(c, ctx));
  if (n.kind === 'group') {
    return { ...common, kind: 'group', type: 'group', slug: n.slug, path: page.path, ...(n.hidden ? { hidden: true } : {}), pages };
  }
  return {
    ...common,
    kind: 'sheet',
    type: 'document',
    urls: { app: ctx.urls.appLink(`/s/${ctx.spaceId}/${page.path}`) },
    slug: n.slug,
    path: page.path,
    ...(n.description ? { description: n.description } : {}),
    ...(n.hidden ? { hidden: true } : {}),
    layout: DEFAULT_LAYOUT,
    ...(ctx.metadata && n.gitPath ? { git: { oid: n.bodyHash ?? n.hash, path: n.gitPath } } : {}),
    ...(n.variables ? { variables: n.variables } : {}),
    ...(n.bodyHash ? { documentId: n.bodyHash } : {}),
    ...body,
    pages,
  };
}

export function presentFile(file: FileEntry, ctx: FileContext): Record<string, unknown> {
  const expires = Math.floor(ctx.now / 1000) + ctx.ttlSeconds;
  const signed = { key: file.blobKey, name: file.name, contentType: file.contentType, expires };
  const query = new URLSearchParams({ name: file.name, type: file.contentType, expires: String(expires), signature: ctx.signer.sign(signed) });
  return {
    id: file.fileId,
    name: file.name,
    contentType: file.contentType,
    downloadURL: ctx.urls.location(`/files/${file.blobKey}?${query}`),
    size: Number(file.size),
    ...(file.width && file.height ? { dimensions: { width: file.width, height: file.height } } : {}),
    ...(ctx.metadata && file.gitPath ? { git: { oid: file.blobKey, path: file.gitPath } } : {}),
  };
}

/**
 * `mergedFrom` (a `merge` revision's change request, presented by the caller since it takes
 * a query) is required by GitBook's schema on merge revisions.
 */
export function presentRevision(revision: Revision, tree: TreePage[], files: FileEntry[], ctx: ContentContext & { files: FileContext }, mergedFrom?: ChangeRequestBody) {
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    pages: tree.map((p) => presentPage(p, ctx)),
    files: files.map((f) => presentFile(f, ctx.files)),
    reusableContents: [],
    variables: revision.variables,
    createdAt: revision.createdAt.toISOString(),
    type: revision.type,
    ...(mergedFrom ? { mergedFrom } : {}),
    ...(ctx.metadata && revision.git ? { git: revision.git } : {}),
    urls: { app: ctx.urls.appLink(`/s/${ctx.spaceId}/~/revisions/${revision.id}`) },
  };
}
