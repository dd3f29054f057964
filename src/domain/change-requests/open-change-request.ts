import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeRequest, type ChangeRequestStatus } from '../entities/change-request.entity.ts';
import type { IssueCluster } from '../entities/issue-cluster.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { notFound } from '../shared/errors.ts';

export type OpenChangeRequestInput = {
  subject?: string;
  description?: Record<string, unknown> | null;
  status?: Extract<ChangeRequestStatus, 'draft' | 'open'>;
  cluster?: IssueCluster | null;
};

/**
 * Opens a change request on the space's current content. Its number is the space's next
 * one: taken by an UPDATE … RETURNING on the space row, so concurrent openings queue on
 * that row for the rest of their transaction and each gets its own number, and a rolled
 * back opening leaves a gap rather than a number given twice (numbers are never reused).
 */
export async function openChangeRequest(em: EntityManager, space: Space, author: User, input: OpenChangeRequestInput): Promise<ChangeRequest> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ change_request_seq: number; revision: string }[]>(
      'update spaces set change_request_seq = change_request_seq + 1 where id = ? returning change_request_seq, revision',
      [space.id],
    );
    const row = rows[0];
    if (!row) throw notFound('Space');
    const changeRequest = tx.create(ChangeRequest, {
      space: space.id,
      number: row.change_request_seq,
      status: input.status ?? 'draft',
      subject: input.subject ?? '',
      description: input.description ?? null,
      createdBy: author,
      revision: row.revision,
      revisionInitial: row.revision,
      revisionMergedAncestor: row.revision,
      cluster: input.cluster ?? null,
    });
    await tx.flush();
    return changeRequest;
  });
}
