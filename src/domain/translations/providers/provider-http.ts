import type { z } from 'zod';
import { AiError, requestJson, type JsonRequest } from '../../ai/openai-client.ts';
import type { GuardedHttp } from '../../net/guarded-http.ts';
import { redactText } from '../../net/redact.ts';
import { ProviderError, type ProviderErrorCode } from '../provider.ts';

/**
 * The HTTP side every translation provider shares: one JSON call through the guarded client
 * (requestJson), retried while retrying may help, and every failure turned into a
 * ProviderError whose message never holds the API key.
 */

export type RetryPolicy = {
  /** Calls per request: the first and its retries. */
  attempts: number;
  /** First pause when the service names none (doubled each time). */
  baseDelayMs: number;
  /** Most time spent waiting across one request's retries: a longer Retry-After gives up at once. */
  maxWaitMs: number;
};

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1000, maxWaitMs: 60_000 };

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

export type ProviderEndpoint = {
  url: string;
  http: GuardedHttp;
  /** Only for scrubbing messages: each provider puts it where its API wants it. */
  secret: string | undefined;
  retry: RetryPolicy;
  sleep: Sleep;
};

export async function callProvider<S extends z.ZodType>(endpoint: ProviderEndpoint, req: JsonRequest, schema: S): Promise<z.output<S>> {
  const { retry } = endpoint;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await requestJson({ url: endpoint.url, http: endpoint.http, apiKey: undefined }, req, schema);
    } catch (err) {
      if (!(err instanceof AiError)) throw err; // the caller's cancellation
      const failure = classify(err);
      const wait = failure.retry ? (retryAfterMs(err.retryAfter) ?? retry.baseDelayMs * 2 ** (attempt - 1)) : undefined;
      if (wait === undefined || attempt >= retry.attempts || waited + wait > retry.maxWaitMs) {
        throw new ProviderError(failure.code, scrub(err.message, endpoint.secret));
      }
      waited += wait;
      await endpoint.sleep(wait, req.signal);
    }
  }
}

/** What an error means for the run, and whether another attempt may get through. */
function classify(err: AiError): { code: ProviderErrorCode; retry: boolean } {
  if (err.code === 'TIMEOUT') return { code: 'TIMEOUT', retry: true };
  if (err.code === 'UNREACHABLE') return { code: 'UNAVAILABLE', retry: err.transient };
  if (err.code === 'BAD_RESPONSE') return { code: 'BAD_RESPONSE', retry: false };
  const status = err.status ?? 0;
  if (status === 401 || status === 403) return { code: 'AUTH_FAILED', retry: false };
  // DeepL's "quota exceeded"; waiting does not bring characters back this month.
  if (status === 456) return { code: 'QUOTA_EXCEEDED', retry: false };
  if (status === 429) return { code: 'RATE_LIMITED', retry: true };
  if (status === 408 || status >= 500) return { code: 'UNAVAILABLE', retry: true };
  return { code: 'BAD_RESPONSE', retry: false };
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** URLs redacted and, should a service echo it back, the key itself removed. */
export function scrub(message: string, secret: string | undefined): string {
  const text = redactText(message);
  return secret ? text.split(secret).join('[REDACTED]') : text;
}

/** `n` items at a time, one call after another (providers rate-limit parallel calls). */
export async function inBatches<T>(items: string[], size: number, fn: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await fn(items.slice(i, i + size))));
  return out;
}
