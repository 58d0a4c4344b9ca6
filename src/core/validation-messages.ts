/**
 * An Ajv error as request validation reports it. The validator runs with
 * `verbose`, so each error also carries the schema and the data it concerns:
 * what a union's error needs to tell which branch the caller meant.
 */
export interface ValidationIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  schema?: unknown;
  parentSchema?: unknown;
  data?: unknown;
}

/** A union whose every branch names the values of one required property: GitBook's `operation`, `kind`, `type`. */
interface Discriminator {
  property: string;
  /** Per branch, the values that select it. */
  values: unknown[][];
}

/** A wrong or missing discriminator: made here, not by Ajv. */
const DISCRIMINATOR = 'discriminator';

/** Past this a name is not compared: the comparison is quadratic in its length. */
const MAX_COMPARED_LENGTH = 64;
/** Unknown names looked at for a missing required one: a body may hold any number. */
const MAX_COMPARED_NAMES = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The values a property's schema allows, when it names them. */
function propertyValues(schema: unknown, property: string): unknown[] | undefined {
  if (!isRecord(schema) || !isRecord(schema.properties)) return undefined;
  return tagValues(schema.properties[property]);
}

function isRequired(schema: unknown, property: string): boolean {
  return isRecord(schema) && Array.isArray(schema.required) && schema.required.includes(property);
}

function tagValues(schema: unknown): unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

const discriminators = new WeakMap<object, Discriminator | null>();

function discriminatorOf(branches: unknown): Discriminator | undefined {
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  const known = discriminators.get(branches);
  if (known !== undefined) return known ?? undefined;
  const first: unknown = branches[0];
  let found: Discriminator | null = null;
  for (const property of Object.keys(isRecord(first) && isRecord(first.properties) ? first.properties : {})) {
    const values = branches.map((branch: unknown) =>
      isRequired(branch, property) ? propertyValues(branch, property) : undefined,
    );
    if (values.every((v) => v !== undefined)) {
      found = { property, values };
      break;
    }
  }
  discriminators.set(branches, found);
  return found ?? undefined;
}

function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

interface Focus {
  errors: ValidationIssue[];
  /** For an error on an object whose branch a discriminator chose: which one (` for operation "update_page"`). */
  chosenBy: Map<ValidationIssue, string>;
}

/**
 * A union's errors list every branch's first failure, so the caller reads
 * about branches they never meant. Where the union is discriminated and the
 * data names a branch, only that branch's errors are kept; where it names
 * none, one error saying which values are allowed replaces them all. Outer
 * unions first, so a union inside the chosen branch is narrowed in turn.
 */
function focusOnChosenBranches(errors: ValidationIssue[]): Focus {
  let current = errors;
  const chosenBy = new Map<ValidationIssue, string>();
  const seen = new Set<ValidationIssue>();
  for (;;) {
    const union = current
      .filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && !seen.has(e))
      .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
    if (!union) return { errors: current, chosenBy };
    seen.add(union);
    const tag = discriminatorOf(union.schema);
    if (!tag || !isRecord(union.data)) continue;
    const given = Object.hasOwn(union.data, tag.property) ? union.data[tag.property] : undefined;
    const chosen = new Set<number>();
    tag.values.forEach((values, i) => {
      if (given !== undefined && values.includes(given)) chosen.add(i);
    });
    if (chosen.size === 0) {
      const wrong: ValidationIssue = {
        instancePath: `${union.instancePath}/${pointerSegment(tag.property)}`,
        schemaPath: union.schemaPath,
        keyword: DISCRIMINATOR,
        params: { allowedValues: [...new Set(tag.values.flat())], given },
      };
      return { errors: [wrong], chosenBy };
    }
    const prefix = `${union.schemaPath}/`;
    current = current.filter((e) => {
      if (e === union) return false;
      if (!e.schemaPath.startsWith(prefix)) return true;
      return chosen.has(Number(e.schemaPath.slice(prefix.length).split('/', 1)[0]));
    });
    // An error on the object itself (a field missing or unknown) is told with the branch it is about.
    for (const e of current) {
      if (e.instancePath === union.instancePath && !chosenBy.has(e)) {
        chosenBy.set(e, ` for ${tag.property} ${JSON.stringify(given)}`);
      }
    }
  }
}

/** Optimal string alignment distance: a swapped pair of letters ("documnet") counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The candidate a mistyped name most likely meant, if one is close: a quarter of its letters wrong at most. */
function nearest(name: string, candidates: readonly string[]): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const lower = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const allowed = Math.max(1, Math.floor(candidate.length / 4));
    if (Math.abs(candidate.length - name.length) > allowed) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** The names an object schema takes, when it takes no others; undefined when any name would do. */
function closedProperties(schema: unknown): string[] | undefined {
  if (!isRecord(schema) || schema.additionalProperties !== false || schema.patternProperties !== undefined) {
    return undefined;
  }
  return isRecord(schema.properties) ? Object.keys(schema.properties) : [];
}

function unknownNames(error: ValidationIssue): string[] {
  const known = closedProperties(error.parentSchema);
  if (!known || !isRecord(error.data)) return [];
  const names: string[] = [];
  for (const name in error.data) {
    if (!Object.hasOwn(error.data, name) || known.includes(name)) continue;
    names.push(name);
    if (names.length === MAX_COMPARED_NAMES) break;
  }
  return names;
}

/**
 * The values a field may take. Inside a union that is not discriminated (a
 * branch may leave the field out) a branch's constant is one of several: the
 * caller needs them all, not the one of the branch that failed last.
 */
function constValues(error: ValidationIssue, errors: ValidationIssue[]): unknown[] {
  const values = new Set<unknown>();
  for (const union of errors) {
    if (union.keyword !== 'anyOf' && union.keyword !== 'oneOf') continue;
    if (!error.instancePath.startsWith(`${union.instancePath}/`) || !Array.isArray(union.schema)) continue;
    const rest = error.instancePath.slice(union.instancePath.length + 1);
    if (rest.includes('/')) continue;
    const name = rest.replace(/~1/g, '/').replace(/~0/g, '~');
    for (const branch of union.schema as unknown[]) {
      for (const value of propertyValues(branch, name) ?? []) values.add(value);
    }
  }
  values.add(error.params.allowedValue);
  return [...values];
}

function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`;
}

function listValues(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** One readable sentence for a failed schema rule, naming the field and the rule. */
export function describeValidation(context: string, errors: ValidationIssue[]): string {
  const focus = focusOnChosenBranches(errors);
  const pool = focus.errors.length > 0 ? focus.errors : errors;
  // Union summaries ("must match a schema in anyOf") say less than the branch errors beside them.
  const specific = pool.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const error = [...(specific.length > 0 ? specific : pool)].sort(
    (a, b) => b.instancePath.length - a.instancePath.length,
  )[0]!;
  const field = `${context}${error.instancePath}`;
  const branch = focus.chosenBy.get(error) ?? '';
  switch (error.keyword) {
    case DISCRIMINATOR: {
      const allowed = error.params.allowedValues as unknown[];
      const given = error.params.given;
      if (given === undefined) return `${field} is required and must be one of: ${listValues(allowed)}`;
      const strings = allowed.filter((v): v is string => typeof v === 'string');
      const suggestion = typeof given === 'string' ? nearest(given, strings) : undefined;
      return `${field} must be one of: ${listValues(allowed)}${didYouMean(suggestion)}`;
    }
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      const present = isRecord(error.data) ? error.data : {};
      const free = (closedProperties(error.parentSchema) ?? []).filter((p) => !Object.hasOwn(present, p));
      return `${field}/${name} is not an accepted field${branch}${didYouMean(nearest(name, free))}`;
    }
    case 'enum':
      return `${field} must be one of: ${listValues(error.params.allowedValues as unknown[])}`;
    case 'const':
      return `${field} must be one of: ${listValues(constValues(error, errors))}`;
    case 'required': {
      const missing = String(error.params.missingProperty);
      // A required name that is missing because it was mistyped: the typo is the news.
      const typo = unknownNames(error).find((name) => nearest(name, [missing]) !== undefined);
      if (typo !== undefined) {
        return `${field}/${typo} is not an accepted field${branch}${didYouMean(missing)}`;
      }
      return `${field}/${missing} is required${branch}`;
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}
