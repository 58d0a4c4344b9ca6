import { NullableStringEnum, StringEnum } from '../core/schemas.js';
import { ROLES } from './roles.js';

export const RoleSchema = StringEnum(ROLES);
export const NullableRoleSchema = NullableStringEnum(ROLES, { description: 'A role, or null for guests' });

export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;
/** A role, `inherit` (the parent's), or null (nothing beyond the organization role). */
export const DefaultLevelSchema = NullableStringEnum(DEFAULT_LEVELS, { description: 'Default level for the content' });
