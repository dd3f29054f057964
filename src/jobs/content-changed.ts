import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentChangeRecorder } from '../domain/content/commit-revision.ts';
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

/**
 * The form content commits take (`commitOnCurrent`, `commitRevision`): routes pass their
 * transactional `outbox`, jobs their `ctx.outbox`; the commit calls it in its transaction.
 */
export function contentChangeRecorder(outbox: JobOutbox): ContentChangeRecorder {
  return (em, space) => recordContentChange(em, outbox, space);
}
