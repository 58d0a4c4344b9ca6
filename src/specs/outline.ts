/**
 * What a spec's version says of itself, in short: enough for a computed page
 * of type `builtin:openapi` to list the spec's operations without reading
 * the whole spec. Made when a version is stored, bounded by the limits below.
 */
export interface SpecOutline {
  info: { title: string; version: string; description?: string };
  tags: SpecOutlineTag[];
  /** In the order of the spec's `paths`, then of the methods in each path; at most OUTLINE_LIMITS.operations. */
  operations: SpecOutlineOperation[];
  /** How many operations the spec has: more than `operations` holds when the outline was cut short. */
  operationCount: number;
  /** The spec's reusable schemas (components.schemas, or Swagger 2's definitions), for a models page; at most OUTLINE_LIMITS.schemas. */
  schemas?: SpecOutlineSchema[];
}

export interface SpecOutlineSchema {
  name: string;
  description?: string;
}

export interface SpecOutlineTag {
  name: string;
  description?: string;
}

export interface SpecOutlineOperation {
  path: string;
  /** Lower case, as a key of a path item: `get`, `post` … */
  method: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
}

/** The bounds of an outline, so that one stays small whatever the spec. */
export const OUTLINE_LIMITS = {
  operations: 2_000,
  tags: 200,
  tagsPerOperation: 20,
  schemas: 2_000,
  /** Characters of a title, name, version, summary or operationId. */
  shortText: 500,
  /** Characters of a description. */
  description: 2_000,
} as const;
