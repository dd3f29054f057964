import type { EntityManager } from '@mikro-orm/postgresql';
import { commitOnCurrent } from '../content/commit-revision.ts';
import type { PageSpec } from '../content/page-tree.ts';
import type { TreePage } from '../content/revision-reader.ts';
import { createSpaceIn } from '../content/spaces.ts';
import { Collection } from '../entities/collection.entity.ts';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import { Organization } from '../entities/organization.entity.ts';
import type { LinkTarget } from '../entities/page-node.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { TranslationPage } from '../entities/translation-page.entity.ts';
import type { TranslationRun } from '../entities/translation-run.entity.ts';
import type { Translation } from '../entities/translation.entity.ts';
import type { PageResult } from './checkpoint.ts';
import { insertQueuedRun } from './request-run.ts';
import type { RunDeps } from './run-translation.ts';
import type { RunInputs } from './run-inputs.ts';

/** GitBook's limit on a space title. */
const TITLE_LIMIT = 50;

/**
 * The run's last step, in the caller's transaction (which holds the translation's lock):
 * translations of deleted source pages go, the result space (made on the first run) gets
 * one revision with the translated tree, and the translation, its stats and the run end;
 * a follow-up asked for meanwhile is queued in the same commit.
 */
export async function commitResult(
  tx: EntityManager,
  translation: Translation,
  run: TranslationRun,
  inputs: RunInputs,
  results: Map<string, PageResult>,
  deps: RunDeps,
) {
  await tx.nativeDelete(TranslationPage, { translation, sourcePage: { $nin: [...results.keys()] } });
  const space = await resultSpace(tx, translation, inputs.source.space);
  const revision = await commitOnCurrent(
    tx,
    space,
    async () => ({ pages: resultTree(inputs.tree, results), files: inputs.source.revision.files, variables: inputs.source.revision.variables }),
    deps.onChange,
  );
  // What this run translated, its killed attempts included: the pages it last wrote.
  const [mine] = await tx.execute<{ pages: string; words: string | null }[]>(
    'select count(*) as pages, sum(words) as words from translation_pages where translation_id = ? and run = ?',
    [translation.id, run.id],
  );
  const pages = Number(mine?.pages ?? 0);
  const words = Number(mine?.words ?? 0);
  const finishedAt = deps.now();
  const startedAt = run.startedAt ?? run.createdAt;
  const durationMs = Math.max(0, finishedAt.getTime() - startedAt.getTime());
  const seconds = Math.round(durationMs / 1000);
  Object.assign(run, { status: 'completed', finishedAt, pages, words, durationMs });
  Object.assign(translation, {
    resultSpace: space,
    resultRevision: revision.id,
    status: 'completed',
    runs: translation.runs + 1,
    totalWords: translation.totalWords + words,
    totalPages: translation.totalPages + pages,
    totalDuration: translation.totalDuration + seconds,
    latestRunDuration: seconds,
    latestPages: pages,
    latestWords: words,
    lastRun: { run: run.id, outcome: 'completed', startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), error: null },
  });
  await tx.flush();
  const followUp = await queueFollowUp(tx, translation, deps);
  return { pages, words, rejected: run.rejected.length, revision: revision.id, followUp };
}

/** A follow-up asked for during the run that just ended: cleared, and queued with its job. Under the translation's lock. */
export async function queueFollowUp(tx: EntityManager, translation: Translation, deps: Pick<RunDeps, 'schedule'>): Promise<boolean> {
  if (!translation.followUp) return false;
  translation.followUp = false;
  await tx.flush();
  const next = await insertQueuedRun(tx, translation.id);
  if (next) deps.schedule(tx, { translationId: translation.id, runId: next });
  return next !== null;
}

/**
 * The translation's result space. The first run makes it beside the source, and so does a
 * run after it was deleted (in the bin or purged) or moved to another organization: a run
 * writes only into a live space of the translation's own organization.
 */
async function resultSpace(tx: EntityManager, translation: Translation, source: Space): Promise<Space> {
  const existing = translation.resultSpace
    ? await tx.findOne(Space, { id: translation.resultSpace.id, organization: translation.organization.id, deletedAt: null })
    : null;
  if (existing) return existing;
  const suffix = ` (${translation.language})`;
  const space = await createSpaceIn(tx, tx.getReference(Organization, source.organization.id), {
    // By code points: a cut through a surrogate pair would store U+FFFD.
    title: Array.from(source.title).slice(0, TITLE_LIMIT - suffix.length).join('').trimEnd() + suffix,
    parent: source.parent ? tx.getReference(Collection, source.parent.id) : null,
    language: translation.language,
  });
  await copyAccess(tx, source, space);
  return space;
}

/**
 * The result holds the source's words: whoever could not read the source must not read
 * it. It takes the source's default level and explicit grants (beside it in the same
 * collection, `inherit` means the same there). Later changes to either are the admins' own.
 */
async function copyAccess(tx: EntityManager, source: Space, result: Space): Promise<void> {
  // Written by id: the space was made in createSpaceIn's own (nested) transaction context.
  await tx.nativeUpdate(Space, { id: result.id }, { defaultLevel: source.defaultLevel });
  result.defaultLevel = source.defaultLevel;
  const grants = await tx.find(ContentPermission, { space: source.id });
  for (const g of grants) {
    tx.create(ContentPermission, { organization: g.organization, space: result, user: g.user ?? null, team: g.team ?? null, role: g.role });
  }
  await tx.flush();
}

/** The source tree with each page's translation, under its result page id; structure, order and slugs as in the source. */
function resultTree(tree: TreePage[], results: Map<string, PageResult>): PageSpec[] {
  return tree.map(({ node, children }) => {
    const t = results.get(node.pageId)!;
    return {
      id: t.resultPage,
      kind: node.kind,
      title: t.title,
      slug: node.slug,
      description: t.description,
      emoji: node.emoji,
      hidden: node.hidden,
      ...(node.kind === 'document' ? { markdown: t.markdown ?? '' } : {}),
      ...(node.linkTarget ? { linkTarget: linkInResult(node.linkTarget, results) } : {}),
      variables: node.variables,
      children: resultTree(children, results),
    };
  });
}

/** A link to a page of the source points at that page's translation. */
function linkInResult(target: LinkTarget, results: Map<string, PageResult>): LinkTarget {
  const page = target.kind === 'page' ? results.get(target.page) : undefined;
  return page ? { kind: 'page', page: page.resultPage } : target;
}
