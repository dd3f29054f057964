import type { EntityManager } from '@mikro-orm/postgresql';
import type { RichTextDocument } from '../entities/agent-instructions.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import { Space } from '../entities/space.entity.ts';
import { TranslationRun } from '../entities/translation-run.entity.ts';
import { Translation } from '../entities/translation.entity.ts';
import { ContentRoles } from '../content/content-roles.ts';
import { spaceRules } from '../content/content.policy.ts';
import { spaceView } from '../content/load-content.ts';
import type { OrgView } from '../organizations/org-view.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';

export type NewTranslation = {
  language: string;
  source: { space: string; language: string };
  instructions: RichTextDocument;
};

export const EMPTY_DOCUMENT: RichTextDocument = { object: 'document', data: {}, nodes: [] };

export async function listTranslations(em: EntityManager, organization: Organization, page: PageRequest) {
  return findPage(em, Translation, { organization }, byTime('createdAt', 'desc'), page);
}

export async function getTranslation(em: EntityManager, organization: Organization, id: string): Promise<Translation> {
  const translation = await em.findOne(Translation, { id, organization });
  if (!translation) throw notFound('Translation');
  return translation;
}

/**
 * A translation of a space the caller can read. An unknown space, one of another
 * organization, one in the bin and one the caller cannot read are the same 400, so the
 * answer never tells which ids exist.
 */
export async function createTranslation(em: EntityManager, org: OrgView, input: NewTranslation): Promise<Translation> {
  if (input.language === input.source.language) {
    throw new BadRequestError('body.language: must differ from source.language (a translation goes into another language)');
  }
  const space = await em.findOne(Space, { id: input.source.space, organization: org.organization, deletedAt: null });
  const access = space ? await ContentRoles.load(em, org) : null;
  if (!space || !access || !spaceRules.view(spaceView(access, space))) {
    throw new BadRequestError(`body.source.space: no space "${input.source.space}" in this organization`);
  }
  const translation = em.create(Translation, {
    organization: org.organization,
    sourceSpace: space,
    sourceLanguage: input.source.language,
    language: input.language,
    instructions: input.instructions,
  });
  await em.flush();
  return translation;
}

/** One conditional UPDATE, so a translation deleted meanwhile is a 404 rather than a 200 about nothing. */
export async function setInstructions(em: EntityManager, organization: Organization, id: string, instructions: RichTextDocument): Promise<Translation> {
  const changed = await em.nativeUpdate(Translation, { id, organization }, { instructions, updatedAt: new Date() });
  if (!changed) throw notFound('Translation');
  return getTranslation(em, organization, id);
}

/** True when this call deleted it; the result space stays (it is content of its own). */
export async function deleteTranslation(em: EntityManager, organization: Organization, id: string): Promise<boolean> {
  return (await em.nativeDelete(Translation, { id, organization })) > 0;
}

export async function listRuns(em: EntityManager, translation: Translation, page: PageRequest) {
  return findPage(em, TranslationRun, { translation }, byTime('createdAt', 'desc'), page);
}
