import { ChangeRequestWire } from '../change-requests/change-requests.schema.ts';
import { Id, PagingQuery, QueryBoolean } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const ContentQuery = z.object({
  metadata: QueryBoolean.default(true).openapi({ description: 'false omits mutable git metadata' }),
  computed: QueryBoolean.default(true).openapi({ description: 'false skips computing content' }),
});

export const PageQuery = ContentQuery.extend({
  format: z.enum(['document', 'markdown']).default('markdown'),
  evaluated: z
    .enum(['true', 'false', 'deterministic-only'])
    .default('false')
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : ('deterministic-only' as const))),
});

export const FilesQuery = PagingQuery.extend(ContentQuery.shape);

export const SpacePageParams = z.object({ spaceId: Id, pageId: Id });
export const SpaceFileParams = z.object({ spaceId: Id, fileId: Id });
export const RevisionParams = z.object({ spaceId: Id, revisionId: Id });
export const RevisionPageParams = RevisionParams.extend({ pageId: Id });
export const RevisionFileParams = RevisionParams.extend({ fileId: Id });

const Layout = z.object({
  width: z.enum(['default', 'wide']),
  cover: z.boolean(),
  coverSize: z.enum(['hero', 'full']),
  title: z.boolean(),
  description: z.boolean(),
  tableOfContents: z.boolean(),
  outline: z.boolean(),
  pagination: z.boolean(),
  metadata: z.boolean(),
});

const Variables = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const PageWire: z.ZodType = z
  .object({
    id: z.string(),
    title: z.string(),
    emoji: z.string().optional(),
    kind: z.enum(['sheet', 'group', 'link']),
    type: z.enum(['document', 'group', 'link']),
    urls: z.object({ app: z.string() }).optional(),
    slug: z.string().optional(),
    path: z.string().optional(),
    description: z.string().optional(),
    hidden: z.boolean().optional(),
    layout: Layout.optional(),
    git: z.object({ oid: z.string(), path: z.string() }).optional(),
    variables: Variables.optional(),
    target: z.unknown().optional(),
    markdown: z.string().optional(),
    document: z.unknown().optional(),
    get pages() {
      return z.array(PageWire).optional();
    },
  })
  .meta({ id: 'RevisionPage' });

export const FileWire = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    downloadURL: z.string(),
    size: z.number(),
    dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
    git: z.object({ oid: z.string(), path: z.string() }).optional(),
  })
  .meta({ id: 'RevisionFile' });

export const RevisionWire = z
  .object({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()),
    pages: z.array(PageWire),
    files: z.array(FileWire),
    reusableContents: z.array(z.unknown()),
    variables: Variables,
    createdAt: z.string(),
    type: z.enum(['edits', 'merge', 'rollback', 'update', 'computed']),
    mergedFrom: ChangeRequestWire.optional().openapi({ description: 'On a `merge` revision: the change request it merged' }),
    git: z.object({ oid: z.string(), message: z.string(), createdByGitBook: z.boolean(), url: z.string().optional(), ref: z.string().optional() }).optional(),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'Revision' });

export const PagesResponse = z.object({ pages: z.array(PageWire) });
