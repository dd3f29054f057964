import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Clock } from '../domain/shared/clock.ts';
import type { JobOutbox } from './outbox.ts';
import type { GuardedHttp } from '../domain/net/guarded-http.ts';
import type { AiServices } from '../domain/ai/ai-services.ts';
import type { BlobStore } from '../domain/storage/blob-store.ts';
import type { TranslationProvider } from '../domain/translations/provider.ts';
import type { QueueName } from './queues.ts';

export type RetryPolicy = { attempts: number; backoff: { type: 'exponential' | 'fixed'; delay: number } };

/**
 * What handlers reach outside the database: file storage, the guarded outbound client, the
 * optional OpenAI-compatible endpoints (absent: offline paths only) and the translation
 * provider (absent: the offline `pseudo` one).
 */
export type JobServices = { blobs: BlobStore; http: GuardedHttp; ai?: AiServices; translation?: TranslationProvider };

export type JobContext = {
  /** A fork of its own: handlers never share an identity map. */
  em: EntityManager;
  log: Logger;
  clock: Clock;
  /** Jobs that this job starts; published after the handler returns. */
  outbox: JobOutbox;
  attempt: number;
  services: JobServices;
  reportProgress(progress: number | object): Promise<void>;
  /**
   * Aborted when the worker stops before this job finished: the job has been handed back to
   * the queue for another worker, so the handler should stop at its next safe point.
   * (Absent when a test calls a handler directly.)
   */
  signal?: AbortSignal;
  /**
   * Removes this job's outbox record in `tx`, the transaction that completes the job's
   * work, so a worker that dies after that commit leaves nothing that runs the job again.
   * (The worker removes it anyway once the handler returns; absent when a test calls a
   * handler directly.)
   */
  finishIn?(tx: EntityManager): Promise<void>;
};

/** What a final-failure hook gets: the database and a log, nothing that enqueues or reaches out. */
export type FinalFailureContext = Pick<JobContext, 'em' | 'log' | 'clock'>;

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  queue: QueueName;
  /** Payloads carry ids only; the handler reloads state and exits quietly when it is gone. */
  payload: S;
  retry: RetryPolicy;
  handle(payload: z.output<S>, ctx: JobContext): Promise<unknown>;
  /**
   * Runs when the job failed for good, by any route: attempts exhausted, an
   * UnrecoverableError, a worker killed once too often, or the stranded-record sweep
   * finding the record's job gone. Records the failure on a row so nothing stays
   * `running`. Must be idempotent (it may run again after a crash) and must leave a row
   * that already reached a final state alone.
   */
  onFinalFailure?(payload: z.output<S>, error: Error, ctx: FinalFailureContext): Promise<void>;
  /**
   * The payloads of records this job has yet to bring to a final state, created before
   * `before` (at most `limit`). The sweep ends, through `onFinalFailure`, those whose job is
   * neither queued nor waiting in the outbox. Declared by every job that owns such a record.
   */
  unfinished?(em: EntityManager, opts: { before: Date; limit: number }): Promise<Array<z.output<S>>>;
};

/** Declares a job once: the API enqueues and workers run it through this object only. */
export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  if (def.retry.attempts < 1 || def.retry.attempts > MAX_ATTEMPTS) throw new Error(`${def.name}: attempts must be 1 to ${MAX_ATTEMPTS}`);
  if (def.unfinished && !def.onFinalFailure) throw new Error(`${def.name}: a job that declares unfinished records needs onFinalFailure`);
  return def;
}

/** Kept below the workers' stalled-count backstop (workers/settings.ts), so attempts always decide. */
export const MAX_ATTEMPTS = 10;
