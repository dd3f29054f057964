import { Redis } from 'ioredis';
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { redactText } from './domain/net/redact.ts';
import { loadConfig, type Config } from '../config/env.ts';
import { configureTreeCache } from './domain/content/revision-reader.ts';
import { openOrm, type Orm } from './domain/orm.ts';
import type { BlobStore } from './domain/storage/blob-store.ts';
import { LocalDiskStore } from './domain/storage/local-disk-store.ts';
import { S3Store } from './domain/storage/s3-store.ts';
import { resolve } from 'node:path';

export type Runtime = { config: Config; log: Logger; orm: Orm; redis: Redis; blobs: BlobStore };

/**
 * Every log line's `err` (a message, or an error) goes through redaction: messages of
 * failed jobs and outbound calls quote the URLs they failed on, credentials included.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string, destination?: DestinationStream): Logger {
  return pino({ name, level: config.logLevel, serializers: { err: redactedError } }, destination);
}

function redactedError(err: unknown): unknown {
  if (typeof err === 'string') return redactText(err);
  if (err instanceof Error) {
    const plain = stdSerializers.err(err);
    return { ...plain, message: redactText(plain.message), stack: plain.stack ? redactText(plain.stack) : plain.stack };
  }
  return err;
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
  configureTreeCache(config.contentCacheBytes);
  const orm = await openOrm({ databaseUrl: config.databaseUrl, poolMax: config.databasePoolMax });
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
