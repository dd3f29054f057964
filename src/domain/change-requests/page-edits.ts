import type { EntityManager } from '@mikro-orm/postgresql';
import { specsOf } from '../content/current-pages.ts';
import { applyPageEdit, type PageEdit } from '../content/page-tree-edits.ts';
import type { ChangeRequest } from '../entities/change-request.entity.ts';
import type { Revision } from '../entities/revision.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { newId } from '../shared/ids.ts';
import { commitOnChangeRequest } from './commit-change-request.ts';

export type PageEditOutcome = { revision: Revision; pageId: string };

/**
 * Edits one page of a change request (create, update, move, delete) as a new revision of
 * its chain, the editor recorded as a contributor. The edit is applied to the head the
 * commit holds, so concurrent edits each land on the one before; a new page's id is chosen
 * once, before the commit, and answered with it.
 */
export async function editChangeRequestPage(em: EntityManager, space: Space, changeRequest: ChangeRequest, editor: User, edit: PageEdit): Promise<PageEditOutcome> {
  const pageId = edit.op === 'create' ? newId() : edit.pageId;
  const revision = await commitOnChangeRequest(
    em,
    space,
    changeRequest,
    async (tx, head) => ({ pages: applyPageEdit(await specsOf(tx, head), edit, pageId), files: head.files, variables: head.variables, type: 'edits' }),
    { contributor: editor.id },
  );
  return { revision, pageId };
}
