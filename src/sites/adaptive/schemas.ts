import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, StringEnum } from '../../core/schemas.js';

export const SiteParams = Type.Object({ organizationId: IdParam, siteId: IdParam });

/** A claim name: what a condition writes after `visitor.claims.`, so an identifier. */
export const CLAIM_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
/** Claims a schema may declare, signed and unsigned together. */
export const MAX_CLAIMS = 100;
export const MAX_CLAIM_DESCRIPTION = 256;
export const UNSIGNED_CLAIMS_DESCRIPTION = 'Unsigned claims of the site visitor.';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const ClosedObject = Type.Unsafe<false>({ type: 'boolean', enum: [false], description: 'Always false' });

/**
 * A visitor claim. The spec's claim properties also have strings, numbers,
 * enums, arrays and objects; Part B's schema has booleans only, and the
 * description is required because the spec's boolean claim requires it.
 */
export const SiteAdaptiveBooleanClaim = Type.Object(
  {
    type: StringEnum(['boolean']),
    description: Type.String({ maxLength: MAX_CLAIM_DESCRIPTION, description: 'What the claim says of the visitor' }),
  },
  { additionalProperties: false },
);
export type SiteAdaptiveBooleanClaim = Static<typeof SiteAdaptiveBooleanClaim>;

/**
 * Claims by name. `maxProperties` comes before the names and values are
 * looked at (Ajv checks the validation keywords before the applicators), so a
 * huge map is refused before it is walked.
 */
function claimMap(maxProperties: number, description: string) {
  return Type.Unsafe<Record<string, SiteAdaptiveBooleanClaim>>({
    type: 'object',
    description,
    maxProperties,
    propertyNames: { pattern: CLAIM_NAME_PATTERN },
    additionalProperties: SiteAdaptiveBooleanClaim,
  });
}

export const SiteAdaptiveUnsignedClaims = Type.Object(
  {
    type: StringEnum(['object']),
    description: StringEnum([UNSIGNED_CLAIMS_DESCRIPTION]),
    properties: claimMap(MAX_CLAIMS, 'Unsigned claims by name: set by the visitor, not verified'),
    additionalProperties: ClosedObject,
  },
  { additionalProperties: false },
);

/** The signed claims by name, and `unsigned`, which is always the object of unsigned claims. */
const SignedClaims = Type.Unsafe<
  Record<string, SiteAdaptiveBooleanClaim> & { unsigned?: Static<typeof SiteAdaptiveUnsignedClaims> }
>({
  type: 'object',
  description: 'Signed claims by name (vouched for by the visitor token), and `unsigned`',
  maxProperties: MAX_CLAIMS + 1,
  propertyNames: { pattern: CLAIM_NAME_PATTERN },
  properties: { unsigned: SiteAdaptiveUnsignedClaims },
  additionalProperties: SiteAdaptiveBooleanClaim,
});

/** SiteAdaptiveJSONSchema: a draft-07 JSON schema of the visitor's claims. */
export const SiteAdaptiveJSONSchema = Type.Object(
  {
    $schema: Type.Optional(StringEnum([DRAFT_07])),
    type: StringEnum(['object']),
    properties: SignedClaims,
    additionalProperties: ClosedObject,
  },
  { additionalProperties: false },
);
export type SiteAdaptiveJSONSchema = Static<typeof SiteAdaptiveJSONSchema>;

export const SiteAdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: SiteAdaptiveJSONSchema,
  updatedAt: DateTime,
});
export type SiteAdaptiveSchema = Static<typeof SiteAdaptiveSchema>;

export const UpdateSiteAdaptiveSchemaBody = Type.Object(
  { jsonSchema: SiteAdaptiveJSONSchema },
  {
    additionalProperties: false,
    examples: [
      {
        jsonSchema: {
          type: 'object',
          properties: {
            isBeta: { type: 'boolean', description: 'The visitor tries features before their release' },
            unsigned: {
              type: 'object',
              description: UNSIGNED_CLAIMS_DESCRIPTION,
              properties: { optedOut: { type: 'boolean', description: 'The visitor hides beta pages' } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
      },
    ],
  },
);
export type UpdateSiteAdaptiveSchemaBody = Static<typeof UpdateSiteAdaptiveSchemaBody>;

export const SiteAdaptiveTemplateCondition = Type.Object({
  description: Type.String({ description: 'What the condition does, in a sentence' }),
  condition: Type.String({ description: 'The condition, ready to use on a section or site space' }),
});
export type SiteAdaptiveTemplateCondition = Static<typeof SiteAdaptiveTemplateCondition>;

export const SiteAdaptiveTemplateConditions = Type.Object({ items: Type.Array(SiteAdaptiveTemplateCondition) });
export type SiteAdaptiveTemplateConditions = Static<typeof SiteAdaptiveTemplateConditions>;
