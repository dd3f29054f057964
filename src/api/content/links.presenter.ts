import type { ChangeRequestBody } from '../change-requests/change-requests.presenter.ts';
import type { SpaceCounts } from '../../domain/content/space-counts.ts';
import type { ContentRef, ResolvedLink } from '../../domain/content/links.ts';
import { flattenTree, type TreePage } from '../../domain/content/revision-reader.ts';
import type { FileEntry } from '../../domain/entities/file-entry.entity.ts';
import type { ApiDeps } from '../context.ts';
import { presentOrganization } from '../orgs/orgs.presenter.ts';
import { presentSpace } from '../spaces/spaces.presenter.ts';
import { presentFile, presentPage, presentRevision } from './content.presenter.ts';
import { fileContext, type readRevision } from './read-content.ts';

/** The revision links live in, presented once per request and shared by every location. */
export type Where = {
  context: Record<string, unknown>;
  pages: Map<string, Record<string, unknown>>;
  files: Map<string, Record<string, unknown>>;
};

/**
 * Which version of the content the links were found in: a revision of main (with the change
 * request it merged, for a merge revision) or a change request's content.
 */
export type VersionOf = { type: 'revision'; mergedFrom?: ChangeRequestBody | undefined } | { type: 'changeRequest'; changeRequest: ChangeRequestBody };

export function whereOf(r: Awaited<ReturnType<typeof readRevision>>, tree: TreePage[], files: FileEntry[], deps: ApiDeps, counts: SpaceCounts, version: VersionOf): Where {
  const ctx = { spaceId: r.space.id, urls: deps.urls, metadata: false };
  const fileCtx = fileContext(deps, false);
  // A location names a page, not its subtree: children are read from the page itself.
  const pages = new Map(flattenTree(tree).map((p) => [p.node.pageId, { ...presentPage(p, ctx), pages: [] }]));
  // The revision as a Revision object (what GitBook clients read `.id` from), without its
  // tree and files: every location of a response repeats it, so the full tree would make a
  // page of links grow with the size of the space. GET …/revisions/{id} has the content.
  const versionContext =
    version.type === 'changeRequest' ? version : { type: 'revision', revision: presentRevision(r.revision, [], [], { ...ctx, files: fileCtx }, version.mergedFrom) };
  return {
    context: {
      organization: presentOrganization(r.access.org, deps.urls),
      space: presentSpace(r.space, r.access, deps.urls, counts),
      versionContext,
    },
    pages,
    files: new Map(files.map((f) => [f.fileId, presentFile(f, fileCtx)])),
  };
}

/** A page of the revision as a ContentLocation, at an anchor of it if given. */
export function pageLocation(where: Where, pageId: string, anchor?: string) {
  const at = anchor === undefined ? {} : { internalLocation: { type: 'anchor', anchor } };
  return { kind: 'page', organization: where.context.organization, space: where.context.space, page: where.pages.get(pageId), versionContext: where.context.versionContext, ...at };
}

/** What a link points at, as a ContentLocation: pages and files of the revision, or a URL. */
export function targetLocation(where: Where, target: ContentRef) {
  switch (target.kind) {
    case 'url':
      return { kind: 'url', url: target.url };
    case 'page':
      return pageLocation(where, target.page);
    case 'anchor':
      return pageLocation(where, target.page, target.anchor);
    case 'file': {
      const { organization, space, versionContext } = where.context;
      return { kind: 'file', organization, space, file: where.files.get(target.file), versionContext };
    }
  }
}

/** One item per distinct target, with every page that links to it. */
export function linkItems(links: ResolvedLink[], where: Where, key: (target: ContentRef) => string) {
  const byTarget = new Map<string, { status: ResolvedLink['status']; target: ContentRef; from: Set<string> }>();
  for (const l of links) {
    const k = key(l.target);
    const item = byTarget.get(k) ?? { status: l.status, target: l.target, from: new Set<string>() };
    item.from.add(l.from);
    byTarget.set(k, item);
  }
  return [...byTarget.entries()].map(([k, i]) => ({
    key: k,
    body: { status: i.status, relation: 'reference' as const, targetReference: targetLocation(where, i.target), locationReferences: [...i.from].map((p) => pageLocation(where, p)) },
  }));
}
