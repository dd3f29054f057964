/**
 * The one catalogue of failures the domain reports. The API maps each class to its
 * HTTP status by type (never by message), so wording can change freely.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
}

export class BadRequestError extends DomainError {
  readonly status = 400;
}
export class UnauthorizedError extends DomainError {
  readonly status = 401;
}
export class ForbiddenError extends DomainError {
  readonly status = 403;
}
export class NotFoundError extends DomainError {
  readonly status = 404;
}
export class MethodNotAllowedError extends DomainError {
  readonly status = 405;
}
export class ConflictError extends DomainError {
  readonly status = 409;
}
export class PreconditionFailedError extends DomainError {
  readonly status = 412;
}

export function notFound(what: string): NotFoundError {
  return new NotFoundError(`${what} not found`);
}

/**
 * A dependency (PostgreSQL, Redis) cannot be reached right now: the request may succeed
 * if retried later, so the API answers 503 with `Retry-After`.
 */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
}

/**
 * A `.catch` handler that turns a not-found failure into `fallback()` and lets everything
 * else (a database outage above all) through to the error middleware: an outage must
 * never read as "no such thing".
 */
export function whenNotFound<T>(fallback: () => T): (err: unknown) => T {
  return (err) => {
    if (err instanceof NotFoundError) return fallback();
    throw err;
  };
}
