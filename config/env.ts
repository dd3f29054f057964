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
  /**
   * PostgreSQL connections each process may hold. API machines × this, plus workers ×
   * this, must stay under the server's max_connections (or a pooler's limit).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
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
  /** Job lock (stalled checks run every half of it: src/workers/settings.ts); the same for every worker of a deployment. */
  JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  /** When the bin is emptied (cron, default hourly) and how long deleted spaces stay restorable. */
  PURGE_SCHEDULE: z.string().refine((v) => cron.validate(v), 'expected a cron expression').default('0 * * * *'),
  SPACE_RETENTION_DAYS: z.coerce.number().min(0).max(3650).default(7),
  /** When OpenAPI specifications with a URL are checked for updates (cron, default every 6 hours). */
  OPENAPI_REFRESH_SCHEDULE: z.string().refine((v) => cron.validate(v), 'expected a cron expression').default('0 */6 * * *'),
  /** When organizations with issues new since their last re-clustering are re-clustered (cron, default hourly at :30). */
  CLUSTER_SCHEDULE: z.string().refine((v) => cron.validate(v), 'expected a cron expression').default('30 * * * *'),
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
  /** How long a PDF export request (and a download of a PDF still rendering) waits for the render. */
  PDF_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Hosts and CIDRs outbound requests may reach although private (e.g. 127.0.0.1 for local development). */
  VELLUM_OUTBOUND_ALLOWLIST: z.string().refine(isValidAllowlist, 'expected comma-separated host names and CIDR ranges').default(''),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  OUTBOUND_MAX_BYTES: z.coerce.number().int().min(1024).max(2 ** 31).default(100 * 1024 * 1024),
  /** Budget of the in-process content cache (revision page trees), in estimated bytes. */
  CONTENT_CACHE_BYTES: byteSize.default('64mb'),
  /**
   * Old-generation heap of each process in MiB, passed to Node by bin/vellum. Without it V8
   * lets garbage pile up to hundreds of MB before a full collection, so RSS climbs under load.
   */
  MAX_HEAP_MB: z.coerce.number().int().min(64).max(65_536).optional(),
  /** Optional OpenAI-compatible endpoints (src/domain/ai): base URLs such as https://api.openai.com/v1. */
  EMBEDDINGS_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  LLM_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  LLM_MODEL: z.string().min(1).max(200).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  /** Limit of one call to either endpoint; a failed call is tried once more, then the offline path is used. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** Machine translation (src/domain/translations/providers): `pseudo` works offline and needs nothing else. */
  TRANSLATION_PROVIDER: z.enum(['pseudo', 'openai', 'libretranslate', 'deepl']).default('pseudo'),
  TRANSLATION_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  TRANSLATION_MODEL: z.string().min(1).max(200).optional(),
  TRANSLATION_API_KEY: z.string().min(1).optional(),
  /** Segments per provider call; each provider has its own default. */
  TRANSLATION_BATCH: z.coerce.number().int().min(1).max(500).optional(),
  /** Limit of one provider call: a batch through a chat model takes far longer than an embedding. */
  TRANSLATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
});

export type Config = {
  databaseUrl: string;
  databasePoolMax: number;
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
  clusterSchedule: string;
  storageDir: string;
  storage: { driver: 'local' } | { driver: 's3'; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; prefix?: string };
  signingSecret: string | undefined;
  fileUrlTtlSeconds: number;
  pdfWaitMs: number;
  outbound: { allowlist: string; timeoutMs: number; maxBytes: number };
  contentCacheBytes: number;
  maxHeapMb: number | undefined;
  ai: { embeddings: AiEndpointConfig | undefined; chat: AiEndpointConfig | undefined; timeoutMs: number };
  translation: TranslationConfig;
};

/** The machine translation provider and what it needs; `url` is a base URL without trailing slash. */
export type TranslationConfig = { batch: number | undefined; timeoutMs: number } & (
  | { provider: 'pseudo' }
  | { provider: 'openai'; url: string; model: string; apiKey: string | undefined }
  | { provider: 'libretranslate'; url: string; apiKey: string | undefined }
  | { provider: 'deepl'; url: string; apiKey: string }
);

/** An OpenAI-compatible endpoint: base URL (without trailing slash), model, optional bearer key. */
export type AiEndpointConfig = { url: string; model: string; apiKey: string | undefined };

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
    databasePoolMax: e.DATABASE_POOL_MAX,
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
    clusterSchedule: e.CLUSTER_SCHEDULE,
    storageDir: e.STORAGE_DIR,
    storage: storageConfig(e),
    signingSecret: e.SIGNING_SECRET,
    fileUrlTtlSeconds: e.FILE_URL_TTL,
    pdfWaitMs: e.PDF_WAIT_MS,
    outbound: { allowlist: e.VELLUM_OUTBOUND_ALLOWLIST, timeoutMs: e.OUTBOUND_TIMEOUT_MS, maxBytes: e.OUTBOUND_MAX_BYTES },
    contentCacheBytes: bytesOf(e.CONTENT_CACHE_BYTES),
    maxHeapMb: e.MAX_HEAP_MB,
    ai: {
      embeddings: aiEndpoint('EMBEDDINGS', e.EMBEDDINGS_URL, e.EMBEDDINGS_MODEL, e.EMBEDDINGS_API_KEY),
      chat: aiEndpoint('LLM', e.LLM_URL, e.LLM_MODEL, e.LLM_API_KEY),
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    translation: translationConfig(e),
  };
}

const UNIT = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 } as const;

/** `64mb` → 67108864 (the same forms as BODY_LIMIT). */
function bytesOf(size: string): number {
  const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(size.trim())!;
  return Math.floor(Number(amount) * UNIT[(unit?.toLowerCase() ?? 'b') as keyof typeof UNIT]);
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

/**
 * Each endpoint is all or nothing: a URL needs its model (there is no sensible default
 * across providers), and a model or key without a URL is a half-done setup, not "off".
 */
function aiEndpoint(prefix: 'EMBEDDINGS' | 'LLM', url: string | undefined, model: string | undefined, apiKey: string | undefined): AiEndpointConfig | undefined {
  if (!url) {
    const stray = [model && `${prefix}_MODEL`, apiKey && `${prefix}_API_KEY`].filter(Boolean);
    if (stray.length) throw new ConfigError(`Invalid configuration: ${stray.join(' and ')} set without ${prefix}_URL`);
    return undefined;
  }
  if (!model) throw new ConfigError(`Invalid configuration: ${prefix}_URL needs ${prefix}_MODEL (the model name the endpoint serves)`);
  return { url: stripSlash(url), model, apiKey };
}

/** DeepL hands out free-plan keys ending in `:fx`, valid only on its free host. */
const deeplUrl = (key: string) => (key.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com');

/**
 * Each provider names what it needs; a variable it does not use is a mistake (most often
 * TRANSLATION_PROVIDER forgotten), not something to ignore silently.
 */
function translationConfig(e: z.infer<typeof EnvSchema>): TranslationConfig {
  const provider = e.TRANSLATION_PROVIDER;
  const needs = { pseudo: [], openai: ['TRANSLATION_URL', 'TRANSLATION_MODEL'], libretranslate: ['TRANSLATION_URL'], deepl: ['TRANSLATION_API_KEY'] } as const;
  const uses = {
    pseudo: [],
    openai: ['TRANSLATION_URL', 'TRANSLATION_MODEL', 'TRANSLATION_API_KEY', 'TRANSLATION_BATCH'],
    libretranslate: ['TRANSLATION_URL', 'TRANSLATION_API_KEY', 'TRANSLATION_BATCH'],
    deepl: ['TRANSLATION_URL', 'TRANSLATION_API_KEY', 'TRANSLATION_BATCH'],
  } as const;
  const missing = needs[provider].filter((k) => !e[k]);
  if (missing.length) throw new ConfigError(`Invalid configuration: TRANSLATION_PROVIDER=${provider} needs ${missing.join(' and ')}`);
  const all = ['TRANSLATION_URL', 'TRANSLATION_MODEL', 'TRANSLATION_API_KEY', 'TRANSLATION_BATCH'] as const;
  const stray = all.filter((k) => e[k] !== undefined && !(uses[provider] as readonly string[]).includes(k));
  if (stray.length) throw new ConfigError(`Invalid configuration: ${stray.join(' and ')} not used by TRANSLATION_PROVIDER=${provider}`);
  // DeepL takes at most 50 texts per request.
  if (provider === 'deepl' && (e.TRANSLATION_BATCH ?? 0) > 50) throw new ConfigError('Invalid configuration: TRANSLATION_BATCH is at most 50 for DeepL');
  const common = { batch: e.TRANSLATION_BATCH, timeoutMs: e.TRANSLATION_TIMEOUT_MS };
  const url = e.TRANSLATION_URL && stripSlash(e.TRANSLATION_URL);
  switch (provider) {
    case 'pseudo':
      return { ...common, provider };
    case 'openai':
      return { ...common, provider, url: url!, model: e.TRANSLATION_MODEL!, apiKey: e.TRANSLATION_API_KEY };
    case 'libretranslate':
      return { ...common, provider, url: url!, apiKey: e.TRANSLATION_API_KEY };
    case 'deepl':
      return { ...common, provider, url: url ?? deeplUrl(e.TRANSLATION_API_KEY!), apiKey: e.TRANSLATION_API_KEY! };
  }
}
