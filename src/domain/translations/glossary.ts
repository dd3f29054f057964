import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GlossaryEntry } from '../entities/glossary-entry.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import { BadRequestError, notFound } from '../shared/errors.ts';
import { byTime, findPage, type PageRequest } from '../shared/paging.ts';

/** Language code → term. */
export type GlossaryTranslations = Record<string, string>;

export type GlossaryOperation =
  | { type: 'insert'; translations: GlossaryTranslations }
  | { type: 'update'; id: string; translations: GlossaryTranslations }
  | { type: 'delete'; id: string };

export async function listGlossary(em: EntityManager, organization: Organization, page: PageRequest) {
  return findPage(em, GlossaryEntry, { organization }, byTime('createdAt', 'desc'), page);
}

export async function getGlossaryEntry(em: EntityManager, organization: Organization, id: string): Promise<GlossaryEntry> {
  const entry = await em.findOne(GlossaryEntry, { id, organization });
  if (!entry) throw notFound('Glossary entry');
  return entry;
}

/**
 * Applies a batch in order, all or nothing: `em` must be a transaction's. The entries the
 * batch names are locked first, so a concurrent batch deleting one of them either commits
 * before (this batch then finds it gone: 400) or waits for this one. An update replaces the
 * entry's translations. An id that is unknown, of another organization, or deleted earlier in
 * the batch is a 400 naming the operation.
 */
export async function applyGlossaryBatch(em: EntityManager, organization: Organization, operations: GlossaryOperation[]) {
  const ids = [...new Set(operations.flatMap((op) => (op.type === 'insert' ? [] : [op.id])))];
  const found = ids.length
    ? await em.find(GlossaryEntry, { id: { $in: ids }, organization }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } })
    : [];
  const live = new Map(found.map((e) => [e.id, e]));
  operations.forEach((op, index) => {
    if (op.type === 'insert') {
      em.create(GlossaryEntry, { organization, translations: op.translations });
      return;
    }
    const entry = live.get(op.id);
    if (!entry) throw new BadRequestError(`body.operations.${index}.id: no glossary entry "${op.id}" in this organization`);
    if (op.type === 'update') {
      entry.translations = op.translations;
    } else {
      live.delete(op.id);
      em.remove(entry);
    }
  });
  await em.flush();
}
