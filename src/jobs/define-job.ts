import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Clock } from '../domain/shared/clock.ts';
import type { JobOutbox } from './outbox.ts';
import type { GuardedHttp } from '../domain/net/guarded-http.ts';
import type { BlobStore } from '../domain/storage/blob-store.ts';
import type { QueueName } from './queues.ts';

export type RetryPolicy = { attempts: number; backoff: { type: 'exponential' | 'fixed'; delay: number } };

/** What handlers reach outside the database: file storage and the guarded outbound client. */
export type JobServices = { blobs: BlobStore; http: GuardedHttp };

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
};

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  queue: QueueName;
  /** Payloads carry ids only; the handler reloads state and exits quietly when it is gone. */
  payload: S;
  retry: RetryPolicy;
  handle(payload: z.output<S>, ctx: JobContext): Promise<unknown>;
  /** Called once when the last attempt failed, e.g. to record the failure on a row. */
  onFinalFailure?(payload: z.output<S>, error: Error, ctx: Omit<JobContext, 'outbox' | 'reportProgress' | 'services'>): Promise<void>;
};

/** Declares a job once: the API enqueues and workers run it through this object only. */
export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  return def;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoff: { type: 'exponential', delay: 2000 } };
