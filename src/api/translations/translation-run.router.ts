import { dryRun } from '../../domain/translations/dry-run.ts';
import { pseudoProvider } from '../../domain/translations/provider.ts';
import { requestRun } from '../../domain/translations/request-run.ts';
import { translationResource, translationRules } from '../../domain/translations/translation.policy.ts';
import { scheduleWith } from '../../jobs/translation-run.job.ts';
import { defineRoute } from '../http/route.ts';
import { DryRunWire, RunQuery, TranslationParams } from './translation-run.schema.ts';

/**
 * The provider whose translations a dry run compares against (its name is part of each
 * page's hash). The offline one until the configured providers land; wired at merge.
 */
const providerName = pseudoProvider.name;

export const translationRunRoutes = [
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/translations/{translationId}/run',
    operationId: 'runTranslation',
    summary: 'Run a translation in the background; a run asked for while one is queued or running becomes its one follow-up',
    tags: ['translations'],
    params: TranslationParams,
    query: RunQuery,
    load: translationResource,
    authorize: { rules: translationRules, action: 'edit' },
    transactional: true,
    responses: {
      204: { description: 'The run is queued (or will follow the one queued or running)' },
      200: { description: 'Beyond GitBook (`dryRun=true`): what a run would translate now', schema: DryRunWire },
    },
    async handle({ em, query, outbox, subject: { translation } }) {
      if (query.dryRun) return { status: 200, body: await dryRun(em, translation, providerName) };
      await requestRun(em, translation.id, scheduleWith(outbox));
      return { status: 204 };
    },
  }),
];
