import type { EntityManager } from '@mikro-orm/postgresql';
import type { LoadedSpace } from '../../domain/content/load-content.ts';
import { loadFiles, loadRevision, loadTree } from '../../domain/content/revision-reader.ts';
import type { ApiDeps } from '../context.ts';
import type { FileContext } from './content.presenter.ts';

/** The revision a content read of a loaded space is about: the current one, or one named by id. */
export async function readRevision(em: EntityManager, loaded: LoadedSpace, revisionId?: string) {
  const revision = await loadRevision(em, loaded.space, revisionId ?? loaded.space.revision);
  return { ...loaded, revision, tree: () => loadTree(em, revision.pages), files: () => loadFiles(em, revision.files) };
}

export function fileContext(deps: ApiDeps, metadata: boolean): FileContext {
  return { urls: deps.urls, signer: deps.signer, ttlSeconds: deps.config.fileUrlTtlSeconds, now: deps.clock.now().getTime(), metadata };
}
