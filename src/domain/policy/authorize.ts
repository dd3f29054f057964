import { ForbiddenError } from '../shared/errors.ts';

/** A module's rules: one predicate per action over that module's subject. */
export type Rules<S> = Record<string, (subject: S) => boolean>;

/** The one gate every route goes through: throws 403 when the rule says no. */
export function authorize<S, R extends Rules<S>>(rules: R, subject: S, action: keyof R & string): void {
  const rule = rules[action];
  if (!rule || !rule(subject)) throw new ForbiddenError(`You do not have permission to ${describe(action)}`);
}

export function can<S, R extends Rules<S>>(rules: R, subject: S, action: keyof R & string): boolean {
  return rules[action]?.(subject) ?? false;
}

/** The `permissions` object of a response: the same rules, asked for each key. */
export function permissionsOf<S, R extends Rules<S>, K extends keyof R & string>(
  rules: R,
  subject: S,
  keys: readonly K[],
): Record<K, boolean> {
  return Object.fromEntries(keys.map((k) => [k, can(rules, subject, k)])) as Record<K, boolean>;
}

function describe(action: string): string {
  return action.replace(/([A-Z])/g, ' $1').toLowerCase();
}
