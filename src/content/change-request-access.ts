import { NotFoundError } from '../core/errors.js';
import { findChangeRequest } from './change-request-queries.js';
import { type Context } from '../context.js';

/** A change request of the space, named by id or number, or 404. */
export async function changeRequestIn(context: Context, spaceId: string, changeRequestId: string) {
  const changeRequest = await findChangeRequest(context.db, spaceId, changeRequestId);
  if (!changeRequest) throw changeRequestNotFound();
  return changeRequest;
}

export const changeRequestNotFound = () => new NotFoundError('No change request with this id or number in the space');
