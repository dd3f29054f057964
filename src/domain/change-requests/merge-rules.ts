import type { MergeRule, OrgMergeRules } from '../entities/organization.entity.ts';
import type { SpaceMergeRules } from '../entities/space.entity.ts';
import { evaluateRuleExpression, freeNames, parseRuleExpression, RuleExpressionError, truthy, type Value } from './rule-expression.ts';

export type { MergeRule };

type Person = { id: string; displayName: string; email: string };

/**
 * What merge rules are judged on, read when the merge is asked for. A review `counts` when it
 * is its reviewer's latest and no edit of the change request came after the revision it was
 * given on: updates from main (content already merged) keep approvals, edits outdate them.
 */
export type MergeFacts = {
  space: { id: string; title: string };
  changeRequest: { id: string; number: number; status: string; subject: string; description: string; outdated: boolean; createdBy: Person };
  /** Every review, oldest first; `outdated` = not counting (superseded or edited after). */
  reviews: Array<{ id: string; status: 'approved' | 'changes-requested'; outdated: boolean; revision: string; reviewer: Person }>;
  requestedReviewers: string[];
  actor: Person;
};

export type UnmetRule = { rule: MergeRule['rule']; message: string };
export type RulesVerdict = { unmet: UnmetRule[]; bypass: boolean };

/** The rules a space's merges obey: its own, or its organization's when it inherits. */
export function rulesInForce(space: SpaceMergeRules, organization: OrgMergeRules): MergeRule[] {
  const own = space.type === 'inherit' ? organization : space;
  return own.type === 'rules' ? (own.rules as MergeRule[]) : [];
}

/**
 * Judges every rule (all must pass) and says whether the actor may merge anyway
 * (`allow_bypass` naming them). Unmet rules are listed even when bypassed.
 */
export function checkMergeRules(rules: MergeRule[], facts: MergeFacts): RulesVerdict {
  const counting = latestCounting(facts);
  const approved = new Set(counting.filter((r) => r.status === 'approved').map((r) => r.reviewer.id));
  const unmet: UnmetRule[] = [];
  let bypass = false;
  const fail = (rule: MergeRule, message: string) => unmet.push({ rule: rule.rule, message });
  for (const rule of rules) {
    const users = 'users' in rule ? rule.users : [];
    switch (rule.rule) {
      case 'allow_bypass':
        if (users.includes(facts.actor.id)) bypass = true;
        break;
      case 'require_specific_reviewers': {
        const missing = users.filter((id) => !approved.has(id));
        if (missing.length) fail(rule, `approval needed from every one of the listed reviewers; missing: ${missing.join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!users.some((id) => approved.has(id))) fail(rule, `approval needed from one of: ${users.join(', ')}`);
        break;
      case 'require_at_least_one_review':
        if (approved.size === 0) fail(rule, 'at least one approving review of the current changes is needed');
        break;
      case 'require_all_reviews_approved': {
        const pending = [...new Set([...facts.reviews.map((r) => r.reviewer.id), ...facts.requestedReviewers])].filter((id) => !approved.has(id));
        if (pending.length) fail(rule, `every reviewer and requested reviewer must approve the current changes; not yet: ${pending.join(', ')}`);
        break;
      }
      case 'require_agent_review':
        // No agent can review on this server (reviews are users'): fail closed, bypass only.
        fail(rule, 'an agent review is required, and this server has no review agents: only a user allowed to bypass can merge');
        break;
      case 'require_up_to_date_change_request':
        if (facts.changeRequest.outdated) fail(rule, 'the change request is outdated: update it from the main content first');
        break;
      case 'require_change_request_subject':
        if (!facts.changeRequest.subject.trim()) fail(rule, 'the change request needs a subject');
        break;
      case 'require_change_request_description':
        if (!facts.changeRequest.description.trim()) fail(rule, 'the change request needs a description');
        break;
      case 'custom': {
        const outcome = customRule((rule as { expression: string }).expression, facts);
        if (outcome !== true) fail(rule, outcome);
        break;
      }
      default:
        fail(rule, `unknown rule ${rule.rule}: it cannot be met`);
    }
  }
  return { unmet, bypass };
}

/** true, or why the expression does not hold. */
function customRule(expression: string, facts: MergeFacts): true | string {
  try {
    const value = evaluateRuleExpression(parseRuleExpression(expression), facts as unknown as Record<string, Value>);
    return truthy(value) ? true : `the custom rule does not hold: ${expression}`;
  } catch (err) {
    if (err instanceof RuleExpressionError) return `the custom rule cannot be evaluated (${err.message}): ${expression}`;
    throw err;
  }
}

/** Each reviewer's latest review, when it still counts. */
function latestCounting(facts: MergeFacts): MergeFacts['reviews'] {
  const latest = new Map<string, MergeFacts['reviews'][number]>();
  for (const review of facts.reviews) latest.set(review.reviewer.id, review);
  return [...latest.values()].filter((r) => !r.outdated);
}

/** The names a custom rule's expression may start from (see MergeFacts). */
const RULE_ROOTS: ReadonlySet<string> = new Set(['space', 'changeRequest', 'reviews', 'requestedReviewers', 'actor']);

/**
 * Why a custom rule's expression cannot be saved, or null when it can be judged: it parses
 * and reads only the rule context's roots (a misspelt root would block every merge).
 */
export function expressionProblem(expression: string): string | null {
  try {
    const unknown = [...freeNames(parseRuleExpression(expression))].filter((n) => !RULE_ROOTS.has(n));
    if (unknown.length) return `unknown name ${unknown.join(', ')} (an expression reads ${[...RULE_ROOTS].join(', ')})`;
    return null;
  } catch (err) {
    if (err instanceof RuleExpressionError) return err.message;
    throw err;
  }
}
