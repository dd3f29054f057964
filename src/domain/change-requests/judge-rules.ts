import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../entities/organization.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import type { ChangeRequestRow } from './change-request-row.ts';
import { loadMergeFacts } from './merge-facts.ts';
import { checkMergeRules, rulesInForce, type RulesVerdict } from './merge-rules.ts';

/**
 * The merge rules in force on the space, judged for `actor` merging the change request now.
 * `strictlyUpToDate`: an enforced (not bypassed) up-to-date rule, which a merge must keep
 * holding until it commits.
 */
export async function judgeRules(
  em: EntityManager,
  space: Space,
  row: ChangeRequestRow,
  mainRevision: string,
  actor: User,
): Promise<{ verdict: RulesVerdict; strictlyUpToDate: boolean }> {
  const organization = await em.findOneOrFail(Organization, { id: space.organization.id });
  const rules = rulesInForce(space.mergeRules, organization.mergeRules);
  if (rules.length === 0) return { verdict: { unmet: [], bypass: false }, strictlyUpToDate: false };
  const verdict = checkMergeRules(rules, await loadMergeFacts(em, space, row, mainRevision, actor));
  return { verdict, strictlyUpToDate: !verdict.bypass && rules.some((r) => r.rule === 'require_up_to_date_change_request') };
}
