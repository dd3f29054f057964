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
export class ConflictError extends DomainError {
  readonly status = 409;
}
export class PreconditionFailedError extends DomainError {
  readonly status = 412;
}

export function notFound(what: string): NotFoundError {
  return new NotFoundError(`${what} not found`);
}
