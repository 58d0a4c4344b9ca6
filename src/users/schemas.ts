import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from '../core/schemas.js';

export const UserParams = Type.Object({ userId: IdParam });
export type UserParams = Static<typeof UserParams>;
