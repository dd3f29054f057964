import { changeRequestsRoutes } from './change-requests/change-requests.router.ts';
import { pageEditRoutes } from './change-requests/page-edits.router.ts';
import { reviewRoutes } from './change-requests/reviews.router.ts';
import { mergeRoutes } from './change-requests/merge.router.ts';
import { collectionsRoutes } from './collections/collections.router.ts';
import { commentsRoutes } from './comments/comments.router.ts';
import { contentRoutes } from './content/content.router.ts';
import { clustersRoutes } from './conversations/clusters.router.ts';
import { conversationsRoutes } from './conversations/conversations.router.ts';
import { downloadRoutes } from './content/download.router.ts';
import { pdfDownloadRoutes } from './exports/pdf-download.router.ts';
import { pdfRoutes } from './exports/pdf.router.ts';
import { templateRoutes } from './content/template.router.ts';
import { linksRoutes } from './content/links.router.ts';
import { searchRoutes } from './search/search.router.ts';
import { gitRoutes } from './imports/git.router.ts';
import { importRunRoutes } from './imports/import-runs.router.ts';
import { openapiRoutes } from './openapi/openapi.router.ts';
import { openapiVersionRoutes } from './openapi/openapi-versions.router.ts';
import type { AnyRoute } from './http/route.ts';
import { invitesRoutes } from './invites/invites.router.ts';
import { membersRoutes } from './members/members.router.ts';
import { orgsRoutes } from './orgs/orgs.router.ts';
import { spacesRoutes } from './spaces/spaces.router.ts';
import { ssoRoutes } from './sso/sso.router.ts';
import { glossaryRoutes } from './translations/glossary.router.ts';
import { translationsRoutes } from './translations/translations.router.ts';
import { teamsRoutes } from './teams/teams.router.ts';
import { translationRunRoutes } from './translations/translation-run.router.ts';
import { usersRoutes } from './users/users.router.ts';

/** Every /v1 operation, family by family. */
export const allRoutes: AnyRoute[] = [
  ...usersRoutes,
  ...orgsRoutes,
  ...membersRoutes,
  ...teamsRoutes,
  ...invitesRoutes,
  ...ssoRoutes,
  ...collectionsRoutes,
  ...spacesRoutes,
  ...changeRequestsRoutes,
  ...contentRoutes,
  ...downloadRoutes,
  ...templateRoutes,
  ...pageEditRoutes,
  ...reviewRoutes,
  ...linksRoutes,
  ...searchRoutes,
  ...gitRoutes,
  ...importRunRoutes,
  ...openapiRoutes,
  ...openapiVersionRoutes,
  ...conversationsRoutes,
  ...clustersRoutes,
  ...translationsRoutes,
  ...glossaryRoutes,
  ...translationRunRoutes,
  ...commentsRoutes,
  ...mergeRoutes,
  ...pdfRoutes,
  ...pdfDownloadRoutes,
];
