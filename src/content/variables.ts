import { BadRequestError } from '../core/errors.js';
import type { VariableValues } from '../db/types.js';

/**
 * What a space's or a page's variables may hold. Names are GitBook's: a
 * letter, then letters, digits and underscores (an expression reads them as
 * `space.vars.NAME`, where a dash would be a minus). Values are the spec's
 * VariableValue: a string of at most 256 characters, a number or a boolean.
 * The count keeps a revision's variables, sent with every revision and page,
 * small.
 */
export const VARIABLE_LIMITS = { count: 100, nameLength: 64, stringLength: 256 } as const;

export const VARIABLE_NAME_PATTERN = `^[A-Za-z][A-Za-z0-9_]{0,${VARIABLE_LIMITS.nameLength - 1}}$`;
const VARIABLE_NAME = new RegExp(VARIABLE_NAME_PATTERN);

/** A change to variables: each name set to its value, or removed where it is null. */
export type VariablesPatch = Record<string, string | number | boolean | null>;

function checkValue(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (value.length > VARIABLE_LIMITS.stringLength)
      throw new BadRequestError(`${field} must be a string of at most ${VARIABLE_LIMITS.stringLength} characters`);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new BadRequestError(`${field} must be a finite number`);
  } else if (typeof value !== 'boolean') {
    throw new BadRequestError(`${field} must be a string, a number or a boolean`);
  }
}

function checkName(name: string, field: string): void {
  if (!VARIABLE_NAME.test(name))
    throw new BadRequestError(
      `${field}: "${name.slice(0, 80)}" is not a variable name (a letter, then letters, digits and underscores; at most ${VARIABLE_LIMITS.nameLength})`,
    );
}

function checkCount(variables: VariableValues, field: string): void {
  if (Object.keys(variables).length > VARIABLE_LIMITS.count)
    throw new BadRequestError(`${field} would hold more than ${VARIABLE_LIMITS.count} variables`);
}

/** Variables read from input (a page's frontmatter): every name, value and the count checked. */
export function readVariables(value: unknown, field: string): VariableValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequestError(`${field} must be a mapping`);
  const variables: VariableValues = {};
  for (const [name, variable] of Object.entries(value)) {
    checkName(name, field);
    checkValue(variable, `${field}.${name}`);
    variables[name] = variable as string | number | boolean;
  }
  checkCount(variables, field);
  return variables;
}

/**
 * `current` with `patch` applied: names set to a value are set, names set to
 * null removed (removing one that is absent is a no-op). The result is checked
 * whole, so a batch cannot go past the count in steps.
 */
export function patchVariables(current: VariableValues, patch: VariablesPatch, field: string): VariableValues {
  const next: VariableValues = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    checkName(name, field);
    if (value === null) {
      delete next[name];
    } else {
      checkValue(value, `${field}.${name}`);
      next[name] = value;
    }
  }
  checkCount(next, field);
  return next;
}
