import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../domain/auth/actor.ts';
import { loadSpace } from '../../domain/content/load-content.ts';
import { loadFiles, loadRevision, loadTree } from '../../domain/content/revision-reader.ts';
import { decodeArrayToken, encodeArrayToken, type PageRequest } from '../../domain/shared/paging.ts';
import type { ApiDeps } from '../context.ts';
import type { FileContext } from './content.presenter.ts';

/** The space and revision a content read is about: the current one, or one named by id. */
export async function readRevision(em: EntityManager, actor: Actor, spaceId: string, revisionId?: string) {
  const loaded = await loadSpace(em, actor, spaceId);
  const revision = await loadRevision(em, loaded.space, revisionId ?? loaded.space.revision);
  return { ...loaded, revision, tree: () => loadTree(em, revision.pages), files: () => loadFiles(em, revision.files) };
}

export function fileContext(deps: ApiDeps, metadata: boolean): FileContext {
  return { urls: deps.urls, signer: deps.signer, ttlSeconds: deps.config.fileUrlTtlSeconds, now: deps.clock.now().getTime(), metadata };
}

/** Files are a list inside the revision; pages of it are cut by file id, stable across requests. */
export function pageOfList<T>(items: T[], key: (item: T) => string, request: PageRequest) {
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const after = request.page === undefined ? undefined : decodeArrayToken(request.page)[0];
  const start = after === undefined ? 0 : sorted.findIndex((i) => key(i) > String(after));
  const rest = start < 0 ? [] : sorted.slice(start);
  const page = rest.slice(0, request.limit);
  const more = rest.length > page.length && page.length > 0;
  return { items: page, count: items.length, ...(more ? { next: { page: encodeArrayToken([key(page.at(-1)!)]) } } : {}) };
}
