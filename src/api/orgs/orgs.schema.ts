import { expressionProblem } from '../../domain/change-requests/merge-rules.ts';
import { ORGANIZATION_PERMISSION_KEYS } from '../../domain/organizations/organization.policy.ts';
import { Id, RichTextDocument, Role, RoleOrGuest, UrlsLocation } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

const Domain = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'expected a domain name such as example.com');

const ReviewerRule = z.object({
  rule: z.enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']),
  users: z.array(Id).max(100),
});
const SimpleRule = z.object({
  rule: z.enum([
    'require_at_least_one_review',
    'require_all_reviews_approved',
    'require_agent_review',
    'require_up_to_date_change_request',
    'require_change_request_subject',
    'require_change_request_description',
  ]),
});
/** Refused when it does not parse, so a rule saved is a rule that can be judged (the language: rule-expression.ts). */
const CustomRule = z.object({
  rule: z.literal('custom'),
  expression: z
    .string()
    .min(1)
    .max(1024)
    .superRefine((expression, ctx) => {
      const problem = expressionProblem(expression);
      if (problem) ctx.addIssue({ code: 'custom', message: `not a valid merge-rule expression: ${problem}` });
    }),
});
export const MergeRule = z.union([ReviewerRule, SimpleRule, CustomRule]);
export const OrgMergeRules = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(50) }),
    z.object({ type: z.literal('none') }),
  ])
  .meta({ id: 'OrganizationMergeRules' });

const DefaultContent = z.object({ type: z.literal('site'), site: Id });

export const OrganizationWire = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: z.string(),
    emailDomains: z.array(z.string()),
    hostname: z.string().optional(),
    type: z.enum(['business', 'community']),
    useCase: z.string().optional(),
    communityType: z.string().optional(),
    defaultRole: RoleOrGuest.optional(),
    defaultContent: DefaultContent.optional(),
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    mergeRules: OrgMergeRules,
    customHostname: z.string().optional(),
    trial: z.object({ status: z.string(), count: z.number().int() }),
    internal_isOnNewTrial: z.literal(true),
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
    permissions: z.object(Object.fromEntries(ORGANIZATION_PERMISSION_KEYS.map((k) => [k, z.boolean()]))),
  })
  .meta({ id: 'Organization' });

export const OrgParams = z.object({ organizationId: Id });

export const UpdateOrganizationBody = z
  .object({
    title: z.string().trim().min(2).max(255).optional(),
    emailDomains: z.array(Domain).max(100).optional(),
    hostname: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, 'expected 3 to 32 lower-case letters, digits or dashes')
      .optional(),
    defaultRole: RoleOrGuest.optional(),
    defaultContent: DefaultContent.nullable().optional(),
    logo: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: OrgMergeRules.optional(),
  })
  .meta({ id: 'UpdateOrganization' });

export const AgentInstructionsWire = z
  .object({
    object: z.literal('agent-instructions'),
    instructions: RichTextDocument,
    updatedAt: z.string(),
    updatedBy: z.string(),
    urls: UrlsLocation,
  })
  .meta({ id: 'AgentInstructions' });

export const AgentInstructionsBody = z.object({ instructions: RichTextDocument });

export const EmailDomainParams = z.object({ emailDomain: Domain });

export { Role };
