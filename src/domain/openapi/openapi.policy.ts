import type { OrgView } from '../organizations/org-view.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { rule, type Rules } from '../policy/authorize.ts';

/** Full members read specifications; those who may create content change them. */
export const openapiRules = {
  view: rule<OrgView>('member with an organization role (not a guest)', (a) => organizationRules.listMembers(a)),
  edit: rule<OrgView>('organization role create or above', (a) => organizationRules.createOpenAPISpec(a)),
} satisfies Rules<OrgView>;
