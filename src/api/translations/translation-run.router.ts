import { organizationResource } from '../../domain/organizations/organization.policy.ts';
import { dryRun } from '../../domain/translations/dry-run.ts';
import { requestRun } from '../../domain/translations/request-run.ts';
import { authorizeRun } from '../../domain/translations/run-access.ts';
import { translationRules } from '../../domain/translations/translation.policy.ts';
import { getTranslation } from '../../domain/translations/translations.ts';
import { scheduleWith } from '../../jobs/translation-run.job.ts';
import { defineRoute } from '../http/route.ts';
import { DryRunWire, RunQuery } from './translation-run.schema.ts';
import { TranslationParams } from './translations.schema.ts';

export const translationRunRoutes = [
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/translations/{translationId}/run',
    operationId: 'runTranslation',
    summary: 'Run a translation in the background; a run asked for while one is queued or running becomes its one follow-up',
    tags: ['translations'],
    params: TranslationParams,
    query: RunQuery,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'edit' },
    transactional: true,
    responses: {
      204: { description: 'The run is queued (or will follow the one queued or running)' },
      200: { description: 'Beyond GitBook (`dryRun=true`): what a run would translate now', schema: DryRunWire },
    },
    async handle({ em, params, query, deps, outbox, subject: org }) {
      const translation = await getTranslation(em, org.organization, params.translationId);
      await authorizeRun(em, org, translation);
      // The configured provider's name is part of each page's hash: the workers run the same configuration.
      if (query.dryRun) return { status: 200, body: await dryRun(em, translation, deps.config.translation.provider) };
      await requestRun(em, translation.id, scheduleWith(outbox));
      return { status: 204 };
    },
  }),
];
