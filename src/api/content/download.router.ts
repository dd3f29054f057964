import { Readable } from 'node:stream';
import { notFound } from '../../domain/shared/errors.ts';
import { defineRoute } from '../http/route.ts';
import { z } from '../http/zod.ts';
import { downloadHeaders } from './download-headers.ts';

/**
 * Serves file bytes behind a signed, expiring link (the `downloadURL` of files). No token:
 * the signature is the permission, and it covers the name and type served.
 */
export const downloadRoutes = [
  defineRoute({
    method: 'get',
    path: '/files/{key}',
    operationId: 'downloadFile',
    summary: 'Download a file through a signed link',
    tags: ['content'],
    auth: 'public',
    params: z.object({ key: z.string().regex(/^[a-f0-9]{64}$/, 'expected a file key') }),
    query: z.object({
      name: z.string().min(1).max(255),
      type: z.string().min(1).max(255),
      expires: z.coerce.number().int().positive(),
      signature: z.string().min(1).max(128),
    }),
    responses: { 200: { description: 'The file’s bytes' } },
    async handle({ params, query, deps }) {
      const file = { key: params.key, name: query.name, contentType: query.type, expires: query.expires };
      // A bad or expired signature looks like a missing file: links reveal nothing.
      if (!deps.signer.verify(file, query.signature, deps.clock.now().getTime())) throw notFound('File');
      const stream = await deps.blobs.get(params.key);
      if (!stream) throw notFound('File');
      return {
        status: 200,
        body: stream instanceof Readable ? stream : Readable.from(stream),
        headers: {
          ...downloadHeaders(query.name, query.type),
          'Cache-Control': 'private, max-age=300',
        },
      };
    },
  }),
];
