import cron from 'node-cron';
import { z } from 'zod';
import { isValidAllowlist } from '../src/domain/net/guarded-http.ts';

/** Sizes such as `1mb`, `512kb` or a plain byte count; kept as the string koa's body parser understands. */
const byteSize = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'expected a size such as 1mb, 512kb or 1048576');

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const EnvSchema = z.object({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'expected a postgres:// URL' })
    .default('postgres://postgres:postgres@127.0.0.1:5432/vellum'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'expected a redis:// URL' })
    .default('redis://127.0.0.1:6379'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: logLevel.default('info'),
  /** Base of every `urls.location` field: where clients reach this API. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  /** Base of every `urls.app` field; defaults to PUBLIC_URL. */
  APP_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  BODY_LIMIT: byteSize.default('1mb'),
  /** Seconds SIGTERM waits for in-flight work before forcing exit. */
  SHUTDOWN_TIMEOUT: z.coerce.number().positive().default(25),
  /** Redis key prefix of the job queues. */
  QUEUE_PREFIX: z.string().regex(/^[\w-]{1,64}$/).default('vellum'),
  /** Concurrency of each worker queue unless --concurrency says otherwise. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  /** Job lock and stalled-check period; must be the same for every worker of a deployment. */
  JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** When the bin is emptied (cron, default hourly) and how long deleted spaces stay restorable. */
  PURGE_SCHEDULE: z.string().refine((v) => cron.validate(v), 'expected a cron expression').default('0 * * * *'),
  SPACE_RETENTION_DAYS: z.coerce.number().min(0).max(3650).default(7),
  /** When OpenAPI specifications with a URL are checked for updates (cron, default every 6 hours). */
  OPENAPI_REFRESH_SCHEDULE: z.string().refine((v) => cron.validate(v), 'expected a cron expression').default('0 */6 * * *'),
  /** Where file bytes are kept (local disk store). */
  STORAGE_DIR: z.string().min(1).default('.data/storage'),
  /** `local` (STORAGE_DIR) or `s3` (the S3_* variables, any S3-compatible store). */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z.string().max(256).optional(),
  /** Key of signed download links; made once and kept in the database when not given. */
  SIGNING_SECRET: z.string().min(32).optional(),
  /** Seconds a signed download link stays valid. */
  FILE_URL_TTL: z.coerce.number().int().min(10).max(7 * 24 * 3600).default(3600),
  /** Hosts and CIDRs outbound requests may reach although private (e.g. 127.0.0.1 for local development). */
  VELLUM_OUTBOUND_ALLOWLIST: z.string().refine(isValidAllowlist, 'expected comma-separated host names and CIDR ranges').default(''),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  OUTBOUND_MAX_BYTES: z.coerce.number().int().min(1024).max(2 ** 31).default(100 * 1024 * 1024),
});

export type Config = {
  databaseUrl: string;
  redisUrl: string;
  port: number;
  host: string;
  logLevel: z.infer<typeof logLevel>;
  publicUrl: string;
  appUrl: string;
  bodyLimit: string;
  shutdownTimeoutMs: number;
  queuePrefix: string;
  workerConcurrency: number;
  jobLockMs: number;
  purgeSchedule: string;
  spaceRetentionDays: number;
  openapiRefreshSchedule: string;
  storageDir: string;
  storage: { driver: 'local' } | { driver: 's3'; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; prefix?: string };
  signingSecret: string | undefined;
  fileUrlTtlSeconds: number;
  outbound: { allowlist: string; timeoutMs: number; maxBytes: number };
};

export class ConfigError extends Error {}

/** Reads and validates the environment once; the message names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const publicUrl = stripSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    publicUrl,
    appUrl: stripSlash(e.APP_URL ?? publicUrl),
    bodyLimit: e.BODY_LIMIT,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT * 1000,
    queuePrefix: e.QUEUE_PREFIX,
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobLockMs: e.JOB_LOCK_MS,
    purgeSchedule: e.PURGE_SCHEDULE,
    spaceRetentionDays: e.SPACE_RETENTION_DAYS,
    openapiRefreshSchedule: e.OPENAPI_REFRESH_SCHEDULE,
    storageDir: e.STORAGE_DIR,
    storage: storageConfig(e),
    signingSecret: e.SIGNING_SECRET,
    fileUrlTtlSeconds: e.FILE_URL_TTL,
    outbound: { allowlist: e.VELLUM_OUTBOUND_ALLOWLIST, timeoutMs: e.OUTBOUND_TIMEOUT_MS, maxBytes: e.OUTBOUND_MAX_BYTES },
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** S3 storage needs its endpoint, bucket and keys; naming the missing ones keeps start-up errors clear. */
function storageConfig(e: z.infer<typeof EnvSchema>): Config['storage'] {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local' };
  const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !e[k]);
  if (missing.length) throw new ConfigError(`Invalid configuration: STORAGE_DRIVER=s3 needs ${missing.join(', ')}`);
  return {
    driver: 's3',
    endpoint: e.S3_ENDPOINT!,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    ...(e.S3_PREFIX ? { prefix: e.S3_PREFIX } : {}),
  };
}
