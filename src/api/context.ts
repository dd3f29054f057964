import type { ParameterizedContext } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../../config/env.ts';
import type { Actor } from '../domain/auth/actor.ts';
import type { Orm } from '../domain/orm.ts';
import type { QueueProducer } from '../jobs/producer.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { BlobStore } from '../domain/storage/blob-store.ts';
import type { UrlSigner } from '../domain/storage/signed-urls.ts';
import type { Urls } from './http/urls.ts';

/** What the API needs from the outside world; built once per process. */
export type ApiDeps = {
  config: Config;
  orm: Orm;
  redis: Redis;
  log: Logger;
  urls: Urls;
  producer: QueueProducer;
  /** Time as the domain sees it (deletion and retention); tests move it. */
  clock: Clock;
  blobs: BlobStore;
  signer: UrlSigner;
};

export type AppState = {
  requestId: string;
  log: Logger;
  em: EntityManager;
  actor?: Actor;
};

export type AppContext = ParameterizedContext<AppState> & { params: Record<string, string> };
