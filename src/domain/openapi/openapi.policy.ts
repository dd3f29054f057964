import type { OrgAccess } from '../organizations/org-access.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import type { Rules } from '../policy/authorize.ts';

/** Full members read specifications; those who may create content change them. */
export const openapiRules = {
  view: (a) => organizationRules.listMembers(a),
  edit: (a) => organizationRules.createOpenAPISpec(a),
} satisfies Rules<OrgAccess>;
