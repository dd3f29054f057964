import { organizationResource } from '../../domain/organizations/organization.policy.ts';
import { applyGlossaryBatch, getGlossaryEntry, listGlossary } from '../../domain/translations/glossary.ts';
import { translationRules } from '../../domain/translations/translation.policy.ts';
import { paged, PagingQuery } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { OrgParams } from '../orgs/orgs.schema.ts';
import { GlossaryBatchBody, GlossaryEntryParams, GlossaryEntryWire } from './glossary.schema.ts';
import { presentGlossaryEntry } from './translations.presenter.ts';

const tags = ['glossary'];

export const glossaryRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/translations-glossary',
    operationId: 'listGlossaryEntries',
    summary: 'Terms the translator must render as given, newest first',
    tags,
    params: OrgParams,
    query: PagingQuery,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'view' },
    responses: { 200: { description: 'Glossary entries', schema: paged(GlossaryEntryWire) } },
    async handle({ em, query, deps, subject: org }) {
      const page = await listGlossary(em, org.organization, query);
      return { status: 200, body: { ...page, items: page.items.map((e) => presentGlossaryEntry(e, deps.urls)) } };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/orgs/{organizationId}/translations-glossary',
    operationId: 'updateGlossaryEntries',
    summary: 'Insert, update and delete glossary entries in order, all or nothing',
    tags,
    params: OrgParams,
    body: GlossaryBatchBody,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'edit' },
    transactional: true,
    responses: { 204: { description: 'Every operation applied' } },
    async handle({ em, body, subject: org }) {
      await applyGlossaryBatch(em, org.organization, body.operations);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{organizationId}/translations-glossary/{glossaryEntryId}',
    operationId: 'getGlossaryEntry',
    summary: 'One glossary entry',
    tags,
    params: GlossaryEntryParams,
    load: organizationResource,
    authorize: { rules: translationRules, action: 'view' },
    responses: { 200: { description: 'The glossary entry', schema: GlossaryEntryWire } },
    async handle({ em, params, deps, subject: org }) {
      return { status: 200, body: presentGlossaryEntry(await getGlossaryEntry(em, org.organization, params.glossaryEntryId), deps.urls) };
    },
  }),
];
