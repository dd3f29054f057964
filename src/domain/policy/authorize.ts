import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor.ts';
import { ForbiddenError } from '../shared/errors.ts';

/**
 * A rule over a module's subject; `doc` says in words who passes it (shown in the API
 * document), `denied` what a refused caller is told when the generic sentence would not help.
 */
export type Rule<S> = ((subject: S) => boolean) & { doc?: string; denied?: string };

/** A module's rules: one predicate per action over that module's subject. */
export type Rules<S> = Record<string, Rule<S>>;

/** Attaches its wording to a rule, for the OpenAPI document. */
export function rule<S>(doc: string, check: (subject: S) => boolean, denied?: string): Rule<S> {
  return Object.assign(check, denied === undefined ? { doc } : { doc, denied });
}

/**
 * Where a route's subject comes from: loaded from the validated input, and what the rules of
 * its module judge (`view`). A subject the caller may not see is the same 404 as a missing one.
 */
export type Resource<S, V, I = unknown> = {
  /** What the subject is called in the API document: "space", "organization". */
  name: string;
  load: (em: EntityManager, actor: Actor, input: I) => Promise<S>;
  view: (subject: S) => V;
};

/**
 * An action that depends on the validated request (fields it changes, whose membership it
 * names). `choose` answers the action to authorize, or null when no rule applies (the
 * caller's own record); `actions` and `doc` describe the choice in the API document.
 */
export type ActionChoice<K extends string, I> = {
  actions: readonly K[];
  doc: string;
  choose: (input: I) => K | null;
};

/** The one gate every route goes through: throws 403 when the rule says no. */
export function authorize<S, R extends Rules<S>>(rules: R, subject: S, action: keyof R & string): void {
  const check = rules[action];
  if (!check || !check(subject)) throw new ForbiddenError(check?.denied ?? `You do not have permission to ${describe(action)}`);
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
