import { describe, expect, it } from 'vitest';
import { checkMergeRules, expressionProblem, rulesInForce, type MergeFacts, type MergeRule } from '../../src/domain/change-requests/merge-rules.ts';
import { evaluateRuleExpression, parseRuleExpression } from '../../src/domain/change-requests/rule-expression.ts';

const person = (id: string) => ({ id, displayName: id.toUpperCase(), email: `${id}@example.test` });
const review = (reviewer: string, status: 'approved' | 'changes-requested', outdated = false) => ({ id: `r-${reviewer}-${status}`, status, outdated, revision: 'rev', reviewer: person(reviewer) });

function facts(overrides: Partial<MergeFacts> = {}, cr: Partial<MergeFacts['changeRequest']> = {}): MergeFacts {
  return {
    space: { id: 's1', title: 'Docs' },
    changeRequest: { id: 'c1', number: 1, status: 'open', subject: 'Fix typos', description: 'Typos in the guide', outdated: false, createdBy: person('author'), ...cr },
    reviews: [],
    requestedReviewers: [],
    actor: person('merger'),
    ...overrides,
  };
}
const unmet = (rules: MergeRule[], f: MergeFacts) => checkMergeRules(rules, f).unmet.map((u) => u.rule);

describe('merge rules', () => {
  it('takes the space’s rules, or the organization’s when the space inherits', () => {
    const orgRules = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_review' }] };
    expect(rulesInForce({ type: 'inherit' }, orgRules)).toEqual(orgRules.rules);
    expect(rulesInForce({ type: 'none' }, orgRules)).toEqual([]);
    expect(rulesInForce({ type: 'rules', rules: [{ rule: 'require_change_request_subject' }] }, orgRules)).toEqual([{ rule: 'require_change_request_subject' }]);
    expect(rulesInForce({ type: 'inherit' }, { type: 'none' })).toEqual([]);
  });

  it('require_specific_reviewers: every listed user approved the current changes', () => {
    const rule = [{ rule: 'require_specific_reviewers' as const, users: ['ann', 'bob'] }];
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved')] }))).toEqual(['require_specific_reviewers']);
    expect(checkMergeRules(rule, facts({ reviews: [review('ann', 'approved')] })).unmet[0]!.message).toMatch(/bob/);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved'), review('bob', 'approved')] }))).toEqual([]);
    // An approval an edit outdated does not count; nor one the reviewer withdrew.
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved'), review('bob', 'approved', true)] }))).toEqual(['require_specific_reviewers']);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved'), review('bob', 'approved'), review('bob', 'changes-requested')] }))).toEqual(['require_specific_reviewers']);
  });

  it('require_one_of_specific_reviewers: one listed user approved', () => {
    const rule = [{ rule: 'require_one_of_specific_reviewers' as const, users: ['ann', 'bob'] }];
    expect(unmet(rule, facts({ reviews: [review('carl', 'approved')] }))).toEqual(['require_one_of_specific_reviewers']);
    expect(unmet(rule, facts({ reviews: [review('bob', 'approved')] }))).toEqual([]);
  });

  it('require_at_least_one_review: some approval of the current changes', () => {
    const rule = [{ rule: 'require_at_least_one_review' }];
    expect(unmet(rule, facts())).toEqual(['require_at_least_one_review']);
    expect(unmet(rule, facts({ reviews: [review('ann', 'changes-requested')] }))).toEqual(['require_at_least_one_review']);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved', true)] }))).toEqual(['require_at_least_one_review']);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved')] }))).toEqual([]);
  });

  it('require_all_reviews_approved: every reviewer’s latest approved, requested reviewers included', () => {
    const rule = [{ rule: 'require_all_reviews_approved' }];
    expect(unmet(rule, facts())).toEqual([]);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved'), review('bob', 'changes-requested')] }))).toEqual(['require_all_reviews_approved']);
    expect(unmet(rule, facts({ reviews: [review('bob', 'changes-requested'), review('bob', 'approved')] }))).toEqual([]);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved')], requestedReviewers: ['carl'] }))).toEqual(['require_all_reviews_approved']);
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved'), review('carl', 'approved')], requestedReviewers: ['carl'] }))).toEqual([]);
  });

  it('require_agent_review: never met here (no review agents), only a bypass merges', () => {
    const rule = [{ rule: 'require_agent_review' }];
    expect(unmet(rule, facts({ reviews: [review('ann', 'approved')] }))).toEqual(['require_agent_review']);
    expect(checkMergeRules([...rule, { rule: 'allow_bypass', users: ['merger'] }], facts())).toMatchObject({ bypass: true, unmet: [{ rule: 'require_agent_review' }] });
  });

  it('require_up_to_date_change_request, require_change_request_subject, require_change_request_description', () => {
    expect(unmet([{ rule: 'require_up_to_date_change_request' }], facts({}, { outdated: true }))).toEqual(['require_up_to_date_change_request']);
    expect(unmet([{ rule: 'require_up_to_date_change_request' }], facts())).toEqual([]);
    expect(unmet([{ rule: 'require_change_request_subject' }], facts({}, { subject: '  ' }))).toEqual(['require_change_request_subject']);
    expect(unmet([{ rule: 'require_change_request_subject' }], facts())).toEqual([]);
    expect(unmet([{ rule: 'require_change_request_description' }], facts({}, { description: '' }))).toEqual(['require_change_request_description']);
    expect(unmet([{ rule: 'require_change_request_description' }], facts())).toEqual([]);
  });

  it('allow_bypass: the listed users merge despite unmet rules, which are still named', () => {
    const rules = [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass' as const, users: ['merger'] }];
    expect(checkMergeRules(rules, facts())).toEqual({ bypass: true, unmet: [{ rule: 'require_at_least_one_review', message: expect.any(String) }] });
    expect(checkMergeRules(rules, facts({ actor: person('someone') })).bypass).toBe(false);
  });

  it('custom: holds when its expression is true over space, changeRequest, reviews, actor', () => {
    const custom = (expression: string) => [{ rule: 'custom' as const, expression }];
    const f = facts({ reviews: [review('ann', 'approved'), review('bob', 'changes-requested')] });
    expect(unmet(custom('reviews.filter(r => r.status == "approved" && !r.outdated).length >= 1'), f)).toEqual([]);
    expect(unmet(custom('reviews.every(r => r.status == "approved")'), f)).toEqual(['custom']);
    expect(unmet(custom('actor.id != changeRequest.createdBy.id'), f)).toEqual([]);
    expect(unmet(custom('actor.id == changeRequest.createdBy.id'), f)).toEqual(['custom']);
    expect(unmet(custom("changeRequest.subject.startsWith('Fix') || space.title == 'Docs'"), f)).toEqual([]);
    // An expression that cannot be evaluated is unmet, with the reason.
    expect(checkMergeRules(custom('nobody.knows'), f).unmet[0]!.message).toMatch(/unknown name nobody/);
  });

  it('an unknown rule kind is unmet rather than ignored', () => {
    expect(unmet([{ rule: 'require_moon_phase' }], facts())).toEqual(['require_moon_phase']);
  });
});

describe('custom rule expressions', () => {
  const run = (source: string, context: Record<string, never> | Record<string, unknown> = {}) => evaluateRuleExpression(parseRuleExpression(source), context as never);

  it('evaluates literals, operators, precedence, members and methods', () => {
    expect(run('1 + 2 - 1 == 2 && !(3 < 2)')).toBe(true);
    expect(run("'a' + 1")).toBe('a1');
    expect(run('x.y[1].z', { x: { y: [{ z: 1 }, { z: 'two' }] } })).toBe('two');
    expect(run("x['y'].length", { x: { y: 'abc' } })).toBe(3);
    expect(run('list.includes(2) && !list.includes(5)', { list: [1, 2, 3] })).toBe(true);
    expect(run('list.find(n => n > 1)', { list: [1, 2, 3] })).toBe(2);
    expect(run('list.some(n => list.every(m => m <= n))', { list: [1, 2, 3] })).toBe(true);
    expect(run("' Hi '.trim().toLowerCase().endsWith('hi')")).toBe(true);
    expect(run('1 === 1 && 1 !== 2 && null == null')).toBe(true);
    expect(run('false || 0 || ""')).toBe(false);
  });

  it('reads only own data: no prototype, constructor or functions', () => {
    expect(run('x.constructor', { x: {} })).toBe(null);
    expect(run('x.__proto__', { x: {} })).toBe(null);
    expect(run("x['toString']", { x: {} })).toBe(null);
    expect(run('list.map', { list: [] })).toBe(null);
    expect(() => parseRuleExpression('list.map(x => x)')).toThrow(/unknown method map/);
    expect(() => run('process')).toThrow(/unknown name process/);
  });

  it('refuses what is not in the language, saying where', () => {
    for (const bad of ['', '1 +', 'a = 1', 'a; b', '(1', 'f(1)', 'x => 1', '`t`', 'a.1', '1 ? 2 : 3']) {
      expect(expressionProblem(bad), bad).not.toBeNull();
    }
    expect(expressionProblem('reviews.length > 0')).toBeNull();
  });

  it('refuses an expression reading a name that is not a root of the rule context (it could never be judged)', () => {
    expect(expressionProblem('unknownName == 1')).toMatch(/unknown name unknownName/);
    expect(expressionProblem('reviews.some(r => r.status == status)')).toMatch(/unknown name status/);
    expect(expressionProblem('reviews.some(r => r.reviewer.id != changeRequest.createdBy.id) && requestedReviewers.length == 0')).toBeNull();
  });

  it('bounds evaluation time', () => {
    const list = Array.from({ length: 1000 }, (_, i) => i);
    expect(() => run('l.some(a => l.some(b => l.some(c => a + b + c < 0)))', { l: list })).toThrow(/too long/);
  });
});
