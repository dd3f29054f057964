import { changeRequestRules } from '../../domain/change-requests/change-request.policy.ts';
import { changeRequestResource } from '../../domain/change-requests/load-change-request.ts';
import { spaceRules } from '../../domain/content/content.policy.ts';
import { spaceResource } from '../../domain/content/load-content.ts';
import { Id } from '../http/common.schema.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { pdfReply } from './pdf-reply.ts';
import { PdfQuery, PdfUrlResponse } from './pdf.schema.ts';

const responses = { 200: { description: 'A signed, expiring link to the PDF', schema: PdfUrlResponse } };

/**
 * The content as PDF (compat-facts: `getSpacePDF`, `getChangeRequestPDF`): rendered by the
 * `exports.pdf` job, cached per revision and scope, answered as a signed link. Anyone who
 * may read the space may export it.
 */
export const pdfRoutes = [
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/pdf',
    operationId: 'getSpacePDF',
    summary: 'A link to the space’s current content (or a page of it) as PDF',
    tags: ['content'],
    params: z.object({ spaceId: Id }),
    query: PdfQuery,
    load: spaceResource,
    authorize: { rules: spaceRules, action: 'view' },
    transactional: true,
    responses,
    async handle({ em, outbox, deps, query, subject }) {
      const { space } = subject;
      return pdfReply({ em, outbox, deps }, space, space.revision, { pageId: query.page ?? null, only: query.only }, space.title);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    operationId: 'getChangeRequestPDF',
    summary: 'A link to a change request’s content (or a page of it) as PDF',
    tags: ['change-requests'],
    params: z.object({ spaceId: Id, changeRequestId: Id }),
    query: PdfQuery,
    load: changeRequestResource,
    authorize: { rules: changeRequestRules, action: 'view' },
    transactional: true,
    responses,
    async handle({ em, outbox, deps, query, subject }) {
      const { space, changeRequest } = subject;
      const title = `${space.title} (change request #${changeRequest.number})`;
      return pdfReply({ em, outbox, deps }, space, changeRequest.revision, { pageId: query.page ?? null, only: query.only }, title);
    },
  }),
];
