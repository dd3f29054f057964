import type { GlossaryEntry } from '../../domain/entities/glossary-entry.entity.ts';
import type { TranslationRun } from '../../domain/entities/translation-run.entity.ts';
import type { Translation } from '../../domain/entities/translation.entity.ts';
import { redactText } from '../../domain/net/redact.ts';
import type { OrgView } from '../../domain/organizations/org-view.ts';
import { permissionsOf } from '../../domain/policy/authorize.ts';
import { translationRules } from '../../domain/translations/translation.policy.ts';
import type { Urls } from '../http/urls.ts';
import type { z } from '../http/zod.ts';
import type { GlossaryEntryWire } from './glossary.schema.ts';
import type { TranslationRunWire, TranslationWire } from './translations.schema.ts';

type Language = z.infer<typeof TranslationWire>['language'];
type Instructions = z.infer<typeof TranslationWire>['instructions'];

export function presentTranslation(t: Translation, access: OrgView, urls: Urls): z.infer<typeof TranslationWire> {
  return {
    object: 'translation',
    id: t.id,
    status: t.status,
    // Codes were checked against TranslationLanguage when the translation was made.
    source: { space: t.sourceSpace.id, language: t.sourceLanguage as Language },
    language: t.language as Language,
    instructions: t.instructions as Instructions,
    ...(t.resultSpace && t.resultRevision ? { result: { space: t.resultSpace.id, revision: t.resultRevision } } : {}),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    stats: {
      runs: t.runs,
      totalWords: t.totalWords,
      totalPages: t.totalPages,
      totalDuration: t.totalDuration,
      latestRunDuration: t.latestRunDuration,
      latestPages: t.latestPages,
      latestWords: t.latestWords,
    },
    permissions: permissionsOf(translationRules, access, ['view', 'edit'] as const),
    urls: { location: urls.location(`/orgs/${t.organization.id}/translations/${t.id}`) },
    ...(t.lastRun ? { lastRun: { ...t.lastRun, error: redacted(t.lastRun.error) } } : {}),
  };
}

export function presentRun(run: TranslationRun): z.infer<typeof TranslationRunWire> {
  return {
    object: 'translation-run',
    id: run.id,
    status: run.status,
    provider: run.provider ?? null,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    pages: run.pages,
    words: run.words,
    duration: run.durationMs == null ? null : run.durationMs / 1000,
    rejected: run.rejected,
    error: redacted(run.errorCode ? { code: run.errorCode, message: run.errorMessage ?? '' } : null),
  };
}

export function presentGlossaryEntry(entry: GlossaryEntry, urls: Urls): z.infer<typeof GlossaryEntryWire> {
  return {
    object: 'glossary-entry',
    id: entry.id,
    translations: entry.translations,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
    urls: { location: urls.location(`/orgs/${entry.organization.id}/translations-glossary/${entry.id}`) },
  };
}

/** Provider errors may quote the endpoint they called: URLs in them lose their secrets. */
function redacted(error: { code: string; message: string } | null) {
  return error ? { code: error.code, message: redactText(error.message) } : null;
}
