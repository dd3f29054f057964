import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeRequest } from '../entities/change-request.entity.ts';
import { BadRequestError } from '../shared/errors.ts';
import { assertEditable } from './commit-change-request.ts';
import { changeRequestWhere } from './load-change-request.ts';

/**
 * A change request named in a request body (`target.changeRequest`, `changeRequestId`) as
 * the destination of new content: its id or number, in the space the request acts on. One
 * of another space, or none, is a 400 naming the field; an archived or merged one a 409.
 */
export async function targetChangeRequest(em: EntityManager, spaceId: string, idOrNumber: string, field: string): Promise<ChangeRequest> {
  const changeRequest = await em.findOne(ChangeRequest, changeRequestWhere(spaceId, idOrNumber));
  if (!changeRequest) throw new BadRequestError(`${field}: no change request "${idOrNumber}" in the space`);
  assertEditable(changeRequest.status);
  return changeRequest;
}
