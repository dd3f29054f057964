import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from '../config/env.ts';
import { openOrm, type Orm } from './domain/orm.ts';
import type { BlobStore } from './domain/storage/blob-store.ts';
import { LocalDiskStore } from './domain/storage/local-disk-store.ts';
import { S3Store } from './domain/storage/s3-store.ts';
import { resolve } from 'node:path';

export type Runtime = { config: Config; log: Logger; orm: Orm; redis: Redis; blobs: BlobStore };

export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino({ name, level: config.logLevel });
}

/**
 * Producer-side Redis: fail fast (one retry, no offline queue) so a request never hangs on
 * a Redis outage. Workers build their own blocking connections (maxRetriesPerRequest null).
 */
export function createProducerRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
  return redis;
}

export async function openRuntime(name: string, config: Config = loadConfig()): Promise<Runtime> {
  const log = createLogger(config, name);
  const orm = await openOrm({ databaseUrl: config.databaseUrl });
  const redis = createProducerRedis(config.redisUrl, log);
  return { config, log, orm, redis, blobs: openBlobStore(config) };
}

/** The configured file store: local disk by default, any S3-compatible store when asked. */
export function openBlobStore(config: Config): BlobStore {
  return config.storage.driver === 's3' ? new S3Store(config.storage) : new LocalDiskStore(resolve(config.storageDir));
}

export async function closeRuntime(rt: Runtime): Promise<void> {
  await rt.orm.close(true);
  rt.redis.disconnect();
}
