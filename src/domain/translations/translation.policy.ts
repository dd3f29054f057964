import type { EntityManager } from '@mikro-orm/postgresql';
import { Translation } from '../entities/translation.entity.ts';
import type { OrgView } from '../organizations/org-view.ts';
import { loadOrgView } from '../organizations/org-view.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { rule, type Resource, type Rules } from '../policy/authorize.ts';
import { notFound } from '../shared/errors.ts';

/**
 * Full members read translations; those who may create content change and run them (a run
 * writes the result space, which it creates on the first run).
 */
export const translationRules = {
  view: rule<OrgView>('member with an organization role (not a guest)', (a) => organizationRules.listMembers(a)),
  edit: rule<OrgView>('organization role create or above', (a) => organizationRules.createContent(a)),
} satisfies Rules<OrgView>;

export type LoadedTranslation = { org: OrgView; translation: Translation };

/** A translation of an organization the caller belongs to (404 for another organization's). */
export const translationResource: Resource<LoadedTranslation, OrgView, { params: { organizationId: string; translationId: string } }> = {
  name: 'translation',
  async load(em, actor, { params }) {
    const org = await loadOrgView(em, actor, params.organizationId);
    return { org, translation: await getTranslation(em, org.organization.id, params.translationId) };
  },
  view: (t) => t.org,
};

export async function getTranslation(em: EntityManager, organizationId: string, translationId: string): Promise<Translation> {
  const translation = await em.findOne(Translation, { id: translationId, organization: organizationId });
  if (!translation) throw notFound('Translation');
  return translation;
}
