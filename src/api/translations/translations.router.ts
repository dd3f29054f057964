import { organizationResource } from '../../domain/organizations/organization.policy.ts';
import { translationRules } from '../../domain/translations/translation.policy.ts';
import {
  createTranslation,
  deleteTranslation,
  EMPTY_DOCUMENT,
  getTranslation,
  listRuns,
  listTranslations,
  setInstructions,
} from '../../domain/translations/translations.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { presentRun, presentTranslation } from './translations.presenter.ts';
import { CreateTranslationBody, TranslationParams, TranslationRunWire, TranslationWire, UpdateTranslationBody } from './translations.schema.ts';

const tags = ['translations'];
const ok = { description: 'The translation', schema: TranslationWire };

export const translationsRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/translations',
    operationId: 'listTranslations',
    summary: 'Translations of the organization’s spaces, newest first',
    tags,
    params: OrgParams,
    query: PagingQuery,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'view' },
    responses: { 200: { description: 'Translations', schema: paged(TranslationWire) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listTranslations(em, org.organization, query);
      return { status: 200, body: { ...page, items: page.items.map((t) => presentTranslation(t, org, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{organizationId}/translations',
    operationId: 'createTranslation',
    summary: 'Set up the translation of a space into another language; a run produces the result space',
    tags,
    params: OrgParams,
    body: CreateTranslationBody,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'edit' },
    responses: { 201: ok },
    async handle({ em, body, deps, subject: org }) {
      const translation = await createTranslation(em, org, { ...body, instructions: body.instructions ?? EMPTY_DOCUMENT });
      const presented = presentTranslation(translation, org, deps.urls);
      return { status: 201, body: presented, location: presented.urls.location };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/translations/{translationId}',
    operationId: 'getTranslation',
    summary: 'One translation',
    tags,
    params: TranslationParams,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'view' },
    responses: { 200: ok },
    async handle({ em, params, deps, subject: org }) {
      return { status: 200, body: presentTranslation(await getTranslation(em, org.organization, params.translationId), org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/translations/{translationId}',
    operationId: 'updateTranslation',
    summary: 'Replace the instructions given to the translator; they apply from the next run',
    tags,
    params: TranslationParams,
    body: UpdateTranslationBody,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'edit' },
    responses: { 200: ok },
    async handle({ em, params, body, deps, subject: org }) {
      const translation = await setInstructions(em, org.organization, params.translationId, body.instructions);
      return { status: 200, body: presentTranslation(translation, org, deps.urls) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{organizationId}/translations/{translationId}',
    operationId: 'deleteTranslation',
    summary: 'Delete a translation and its run history; its result space stays',
    tags,
    params: TranslationParams,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'edit' },
    responses: { 205: { description: 'Deleted' }, 204: { description: 'There was no such translation' } },
    async handle({ em, params, subject: org }) {
      return { status: (await deleteTranslation(em, org.organization, params.translationId)) ? 205 : 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/translations/{translationId}/runs',
    operationId: 'listTranslationRuns',
    summary: 'Runs of a translation, newest first, with their outcome (beyond GitBook)',
    tags,
    params: TranslationParams,
    query: PagingQuery,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'view' },
    responses: { 200: { description: 'Runs', schema: paged(TranslationRunWire) } },
    async handle({ em, params, query, subject: org }) {
      const page = await listRuns(em, await getTranslation(em, org.organization, params.translationId), query);
      return { status: 200, body: { ...page, items: page.items.map(presentRun) } };
    },
  }),
];
