import type { z } from 'zod';
import type { AiEndpointConfig } from '../../../config/env.ts';
import { GuardedHttp, OutboundError, parseAllowlist } from '../net/guarded-http.ts';
import { redactText } from '../net/redact.ts';

/**
 * One JSON POST to an OpenAI-compatible endpoint (`/embeddings`, `/chat/completions`), with
 * a time limit, one bounded retry of what may pass (timeouts, connection errors, 408, 429,
 * 5xx) and the answer validated by a zod schema. Errors name the endpoint's host and the
 * failure, never the API key: it is only ever put in the Authorization header.
 */

export type AiErrorCode = 'TIMEOUT' | 'UNREACHABLE' | 'HTTP' | 'BAD_RESPONSE';

export class AiError extends Error {
  readonly code: AiErrorCode;
  /** The HTTP status, for code `HTTP`. */
  readonly status: number | undefined;
  /** The Retry-After header of an HTTP error, as sent (seconds or an HTTP date). */
  readonly retryAfter: string | undefined;
  /** Whether another attempt may succeed (slow, overloaded or briefly unreachable service). */
  readonly transient: boolean;

  constructor(code: AiErrorCode, message: string, opts: { secret?: string | undefined; status?: number; retryAfter?: string | undefined; transient?: boolean } = {}) {
    super(scrub(message, opts.secret));
    this.code = code;
    this.status = opts.status;
    this.retryAfter = opts.retryAfter;
    this.transient = opts.transient ?? false;
  }
}

/** Removes URL secrets and, should a provider echo it back, the key itself. */
function scrub(message: string, secret: string | undefined): string {
  const text = redactText(message);
  return secret ? text.split(secret).join('[REDACTED]') : text;
}

export type AiEndpoint = AiEndpointConfig & {
  http: GuardedHttp;
  timeoutMs: number;
  /** Calls per request: the first and its retries. */
  attempts: number;
  /** Pause before a retry (tests make it 0). */
  retryDelayMs: number;
};

/**
 * The operator configured this endpoint, and local or in-cluster model servers (Ollama,
 * vLLM, a gateway on a private network) are its usual home, so its own host is allowed even
 * when private. Everything else of the guard stays: a redirect to any other private address
 * is refused, the bearer key is not carried to another origin, and time and size limits apply.
 */
export function aiEndpoint(config: AiEndpointConfig, limits: { timeoutMs: number; maxBytes: number; attempts?: number; retryDelayMs?: number }): AiEndpoint {
  const http = configuredEndpointHttp(config.url, limits);
  return { ...config, http, timeoutMs: limits.timeoutMs, attempts: limits.attempts ?? 2, retryDelayMs: limits.retryDelayMs ?? 500 };
}

/** The guarded client of an operator-configured endpoint: its own host allowed even when private (see aiEndpoint). */
export function configuredEndpointHttp(url: string, limits: { timeoutMs: number; maxBytes: number }): GuardedHttp {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return new GuardedHttp({
    allow: { hosts: new Set([host.toLowerCase()]), ranges: parseAllowlist('').ranges },
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    maxRedirects: 2,
    userAgent: 'Vellum/1 (self-hosted documentation platform)',
  });
}

export async function postJson<S extends z.ZodType>(endpoint: AiEndpoint, path: string, body: object, schema: S): Promise<z.output<S>> {
  let lastError: AiError | undefined;
  for (let attempt = 1; attempt <= endpoint.attempts; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, endpoint.retryDelayMs * (attempt - 1)));
    try {
      return await requestJson(endpoint, { method: 'POST', path, body }, schema);
    } catch (err) {
      lastError = err instanceof AiError ? err : new AiError('UNREACHABLE', String((err as Error).message), { secret: endpoint.apiKey });
      if (!lastError.transient) break;
    }
  }
  throw lastError!;
}

export type JsonRequest = {
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  /** Added to (and overriding) the defaults, e.g. another scheme of Authorization than Bearer. */
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
};

/**
 * One call, no retry: for callers with their own retry policy (translation providers honour
 * Retry-After). A cancelled `signal` throws its reason, not an AiError.
 */
export async function requestJson<S extends z.ZodType>(endpoint: Pick<AiEndpoint, 'url' | 'apiKey' | 'http'>, req: JsonRequest, schema: S): Promise<z.output<S>> {
  const { path } = req;
  const url = `${endpoint.url}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.body) headers['content-type'] = 'application/json';
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  Object.assign(headers, req.headers);
  const host = new URL(url).host;
  let res;
  try {
    res = await endpoint.http.fetch(url, { method: req.method, headers, body: req.body && Buffer.from(JSON.stringify(req.body)), signal: req.signal });
  } catch (err) {
    if (req.signal?.aborted) throw err;
    const kind = err instanceof OutboundError ? err.code : 'FETCH_ERROR';
    // A refused address or a bad URL stays so; a timeout or a dropped connection may pass.
    throw new AiError(kind === 'FETCH_TIMEOUT' ? 'TIMEOUT' : 'UNREACHABLE', `${host}${path}: ${(err as Error).message}`, {
      secret: endpoint.apiKey,
      transient: kind === 'FETCH_TIMEOUT' || kind === 'FETCH_ERROR',
    });
  }
  if (res.status < 200 || res.status >= 300) {
    // Providers explain errors in `error.message`; a short excerpt helps the operator.
    const excerpt = res.body.toString('utf8', 0, 300).replace(/\s+/g, ' ');
    throw new AiError('HTTP', `${host}${path} answered ${res.status}: ${excerpt}`, {
      secret: endpoint.apiKey,
      status: res.status,
      retryAfter: res.headers['retry-after'],
      transient: res.status === 408 || res.status === 429 || res.status >= 500,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new AiError('BAD_RESPONSE', `${host}${path} answered with something other than JSON`, { secret: endpoint.apiKey });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AiError('BAD_RESPONSE', `${host}${path} answered an unexpected shape (${first?.path.join('.') || 'body'}: ${first?.message})`, { secret: endpoint.apiKey });
  }
  return parsed.data;
}
