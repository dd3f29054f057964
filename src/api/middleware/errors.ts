import { DriverException, UniqueConstraintViolationException, ValidationError as OrmValidationError } from '@mikro-orm/core';
import type { Next } from 'koa';
import { DomainError, ServiceUnavailableError } from '../../domain/shared/errors.ts';
import type { AppContext } from '../context.ts';
import { RequestValidationError } from '../http/route.ts';
import { isDependencyUnavailable, RETRY_AFTER_SECONDS } from './unavailable.ts';

type Mapped = { status: number; message: string; retryAfter?: number };

/** Library errors from the HTTP layer (body parser, router) that carry a safe status. */
type HttpishError = Error & { status?: number; expose?: boolean; type?: string };

const BODY_ERRORS: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON in request body',
  'entity.too.large': 'Request body is larger than the allowed limit',
  'encoding.unsupported': 'Unsupported request body encoding',
  'charset.unsupported': 'Unsupported request body charset',
  'request.aborted': 'Request was aborted',
};

/**
 * Maps every failure to `{"error":{"code","message"}}`. Errors are told apart by type,
 * never by message text; anything unknown becomes a bare 500 that reveals nothing.
 */
export async function errorMiddleware(ctx: AppContext, next: Next) {
  try {
    await next();
  } catch (err) {
    const mapped = mapError(err);
    if (mapped.status >= 500) ctx.state.log?.error({ err }, 'request failed');
    ctx.status = mapped.status;
    if (mapped.retryAfter) ctx.set('Retry-After', String(mapped.retryAfter));
    ctx.body = { error: { code: mapped.status, message: mapped.message } };
  }
}

export function mapError(err: unknown): Mapped {
  if (err instanceof ServiceUnavailableError || isDependencyUnavailable(err)) {
    // A dependency down is a 503 the client may retry, never a 204/404 or a bare 500.
    return { status: 503, message: 'The service is temporarily unavailable; retry later', retryAfter: RETRY_AFTER_SECONDS };
  }
  if (err instanceof DomainError) return { status: err.status, message: err.message };
  if (err instanceof RequestValidationError) return { status: 400, message: err.message };
  if (err instanceof UniqueConstraintViolationException) {
    return { status: 409, message: 'The request conflicts with an existing resource' };
  }
  if (err instanceof DriverException || err instanceof OrmValidationError) {
    return { status: 500, message: 'Internal server error' };
  }
  const e = err as HttpishError;
  // co-body marks unparsable JSON as a SyntaxError with status 400 and no type.
  if (e instanceof SyntaxError && e.status === 400) return { status: 400, message: BODY_ERRORS['entity.parse.failed']! };
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const known = e.type ? BODY_ERRORS[e.type] : undefined;
    return { status: e.status, message: known ?? (e.expose ? e.message : 'Bad request') };
  }
  return { status: 500, message: 'Internal server error' };
}
