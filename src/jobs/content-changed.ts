import type { EntityManager } from '@mikro-orm/postgresql';
import type { Space } from '../domain/entities/space.entity.ts';
import { indexSpaceJob } from './index-space.job.ts';
import type { JobOutbox } from './outbox.ts';

/**
 * What must follow any change of a space's current revision, recorded in the same
 * transaction as that change: today, bringing its search index up to date.
 */
export function recordContentChange(em: EntityManager, outbox: JobOutbox, space: Space) {
  outbox.add(em, indexSpaceJob, { spaceId: space.id });
}
