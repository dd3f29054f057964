import type { EntityManager } from '@mikro-orm/postgresql';
import { ContentRoles } from '../content/content-roles.ts';
import { collectionRules, spaceRules } from '../content/content.policy.ts';
import { collectionView, spaceView } from '../content/load-content.ts';
import { Collection } from '../entities/collection.entity.ts';
import { Space } from '../entities/space.entity.ts';
import type { Translation } from '../entities/translation.entity.ts';
import type { OrgView } from '../organizations/org-view.ts';
import { ForbiddenError } from '../shared/errors.ts';

/**
 * Beyond the organization role the route asks for: a run (or a dry run) reads the source
 * space for the caller, so the caller must be able to read it; and a run that will make the
 * result space (the first, or one after the result was deleted) makes it in the source's
 * collection, so the caller must be able to create spaces there. A source in the bin or in
 * another organization is left to the run, which fails with SOURCE_UNAVAILABLE.
 */
export async function authorizeRun(em: EntityManager, org: OrgView, translation: Translation): Promise<void> {
  const live = (id: string) => em.findOne(Space, { id, organization: org.organization, deletedAt: null });
  const source = await live(translation.sourceSpace.id);
  if (!source) return;
  const access = await ContentRoles.load(em, org);
  if (!spaceRules.view(spaceView(access, source))) throw new ForbiddenError('You cannot read the source space of this translation');
  if (!source.parent || (translation.resultSpace && (await live(translation.resultSpace.id)))) return;
  const collection = await em.findOneOrFail(Collection, { id: source.parent.id });
  if (!collectionRules.create(collectionView(access, collection))) {
    throw new ForbiddenError("This run creates the result space in the source space's collection, where you cannot create spaces");
  }
}
