import { ChangeRequestWire } from '../change-requests/change-requests.schema.ts';
import { OrganizationWire } from '../orgs/orgs.schema.ts';
import { SpaceWire } from '../spaces/spaces.schema.ts';
import { PagingQuery } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';
import { FileWire, PageWire, RevisionWire } from './content.schema.ts';

export const LinkStatus = z.enum(['ok', 'broken', 'in-app']);
export const LinksQuery = PagingQuery.extend({ status: LinkStatus.optional() });

/** Where the location was found: a revision of main, or a change request's content. */
const VersionContext = z.discriminatedUnion('type', [
  z.object({ type: z.literal('revision'), revision: RevisionWire }),
  z.object({ type: z.literal('changeRequest'), changeRequest: ChangeRequestWire }),
]);
const Anchor = z.object({ type: z.literal('anchor'), anchor: z.string() });

/** Where content is, absolutely: GitBook's ContentLocation, in the forms links produce. */
export const ContentLocation = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('page'), organization: OrganizationWire, space: SpaceWire, page: PageWire, versionContext: VersionContext, internalLocation: Anchor.optional() }),
    z.object({ kind: z.literal('file'), organization: OrganizationWire, space: SpaceWire, file: FileWire, versionContext: VersionContext }),
    z.object({ kind: z.literal('url'), url: z.string() }),
  ])
  .meta({ id: 'ContentLocation' });

const LinkItem = z.object({ status: LinkStatus, relation: z.literal('reference'), targetReference: ContentLocation, locationReferences: z.array(ContentLocation) });
const Next = z.object({ page: z.string() }).optional();

export const LinksResponse = z.object({
  next: Next,
  count: z.number().int(),
  stats: z.object({ total: z.number().int(), broken: z.object({ total: z.number().int() }) }),
  items: z.array(LinkItem),
});
export const BacklinksResponse = z.object({ next: Next, count: z.number().int(), items: z.array(ContentLocation) });
