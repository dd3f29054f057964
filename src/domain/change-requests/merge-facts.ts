import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeRequestRow } from './change-request-row.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import type { MergeFacts } from './merge-rules.ts';

type ReviewRow = { id: string; status: 'approved' | 'changes-requested'; revision: string; reviewer_id: string; display_name: string; email: string };
type ChainRow = { parents: string[]; type: string };

const person = (u: Pick<User, 'id' | 'displayName' | 'email'>) => ({ id: u.id, displayName: u.displayName, email: u.email });

/**
 * Reads what the merge rules judge, on the caller's transaction (the merge reads it with the
 * change request's row held, so no review or commit slips in between the check and the merge).
 * `mainRevision`: main's current revision, to tell whether the change request is outdated.
 */
export async function loadMergeFacts(em: EntityManager, space: Space, changeRequest: ChangeRequestRow, mainRevision: string, actor: User): Promise<MergeFacts> {
  // One after another: on a transaction they share its connection anyway.
  const reviews = await em.execute<ReviewRow[]>(
      `select r.id, r.status, r.revision, u.id as reviewer_id, u.display_name, u.email
         from change_request_reviews r join users u on u.id = r.reviewer_id
        where r.change_request_id = ? order by r.created_at, r.id`,
    [changeRequest.id],
  );
  const requested = await em.execute<{ user_id: string }[]>('select user_id from change_request_requested_reviewers where change_request_id = ?', [changeRequest.id]);
  const author = await em.execute<Pick<User, 'id' | 'displayName' | 'email'>[]>('select id, display_name as "displayName", email from users where id = ?', [changeRequest.createdBy]);
  const stillValid = await revisionsWithoutLaterEdits(em, changeRequest.revision);
  const latestOf = new Map(reviews.map((r) => [r.reviewer_id, r.id]));
  return {
    space: { id: space.id, title: space.title },
    changeRequest: {
      id: changeRequest.id,
      number: changeRequest.number,
      status: changeRequest.status,
      subject: changeRequest.subject,
      description: plainText(changeRequest.description),
      outdated: mainRevision !== changeRequest.revisionMergedAncestor,
      createdBy: person(author[0] ?? { id: changeRequest.createdBy, displayName: '', email: '' }),
    },
    reviews: reviews.map((r) => ({
      id: r.id,
      status: r.status,
      revision: r.revision,
      outdated: latestOf.get(r.reviewer_id) !== r.id || !stillValid.has(r.revision),
      reviewer: { id: r.reviewer_id, displayName: r.display_name, email: r.email },
    })),
    requestedReviewers: requested.map((r) => r.user_id),
    actor: person(actor),
  };
}

/**
 * The revisions of the change request's chain (and the main revision it started from)
 * after which only updates from main came: a review given on one of them still counts.
 * Walked from the head along first parents, one revision at a time: it stops at the first
 * edit, which is usually the head itself.
 */
async function revisionsWithoutLaterEdits(em: EntityManager, head: string): Promise<Set<string>> {
  const valid = new Set<string>();
  for (let id: string | undefined = head; id !== undefined && !valid.has(id); ) {
    valid.add(id);
    const rows: ChainRow[] = await em.execute<ChainRow[]>('select parents, type from revisions where id = ?', [id]);
    if (!rows[0] || rows[0].type !== 'update') break;
    id = rows[0].parents[0];
  }
  return valid;
}

/** The text of a rich-text document (every `text` string in it), for the description rule. */
function plainText(document: unknown): string {
  if (typeof document !== 'object' || document === null) return '';
  const parts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'text' && typeof value === 'string') parts.push(value);
        else walk(value);
      }
    }
  };
  walk(document);
  return parts.join(' ').trim();
}
