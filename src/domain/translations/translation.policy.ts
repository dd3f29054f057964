import type { OrgView } from '../organizations/org-view.ts';
import { organizationRules } from '../organizations/organization.policy.ts';
import { rule, type Rules } from '../policy/authorize.ts';

/**
 * Translations and the glossary belong to the organization: members with an organization
 * role read them; those who may create content (a translation makes a new space) change them.
 */
export const translationRules = {
  view: rule<OrgView>('member with an organization role (not a guest)', (a) => organizationRules.listMembers(a)),
  edit: rule<OrgView>('organization role create or above', (a) => organizationRules.createContent(a)),
} satisfies Rules<OrgView>;
