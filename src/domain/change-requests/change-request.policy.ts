import { spaceRules, type ContentView } from '../content/content.policy.ts';
import { rule, type Rules } from '../policy/authorize.ts';

/** A change request as seen by a caller: their view of its space, and whether they opened it. */
export type ChangeRequestView = ContentView & { creator: boolean };

export const changeRequestRules = {
  view: rule<ChangeRequestView>('role read or above on the space', (v) => spaceRules.view(v)),
  /** Subject, description, status: the space's editors, and the author of the change request. */
  update: rule<ChangeRequestView>('role edit or above on the space, or the change request’s creator', (v) => spaceRules.update(v) || (v.creator && spaceRules.comment(v))),
  /** Its content: the space's editors (a locked space takes no edits, in change requests either). */
  edit: rule<ChangeRequestView>('role edit or above on the space, space not locked', (v) => spaceRules.edit(v)),
  merge: rule<ChangeRequestView>('role edit or above on the space, space not locked', (v) => spaceRules.merge(v)),
  review: rule<ChangeRequestView>('role review or above on the space', (v) => spaceRules.review(v)),
  comment: rule<ChangeRequestView>('role comment or above on the space', (v) => spaceRules.comment(v)),
} satisfies Rules<ChangeRequestView>;
