import { BadRequestError, DomainError, NotFoundError } from '../shared/errors.ts';
import type { ExportState } from './pdf-exports.ts';

/** A render that failed on our side (attempts used up): asking again starts a new one. */
export class ExportFailedError extends DomainError {
  readonly status = 500;
}

/** The error a failed export answers, to the request that asked for it and to its download link. */
export function exportFailure(state: Pick<ExportState, 'errorCode' | 'errorMessage'>): DomainError {
  const message = state.errorMessage ?? 'The PDF could not be rendered';
  switch (state.errorCode) {
    case 'TOO_LARGE':
      return new BadRequestError(message);
    case 'CONTENT_GONE':
    case 'BLOB_MISSING':
      return new NotFoundError(message);
    default:
      return new ExportFailedError(message);
  }
}
