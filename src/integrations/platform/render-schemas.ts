import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from '../../core/schemas.js';

// A UI an integration renders (GitBook's ContentKit): what is asked of it, and what it answers.

// TypeBox's own union rather than StringEnum: the GET form is checked with TypeBox's Value.
const Theme = { theme: Type.Union([Type.Literal('dark'), Type.Literal('light')]) };
const AnyObject = (description: string) =>
  Type.Record(Type.String({ maxLength: 256 }), Type.Unknown(), { maxProperties: 256, description });

/** Where the UI renders (ContentKitContext): it names the installation the render is for. */
export const RenderContextSchema = Type.Union([
  Type.Object({ ...Theme, type: Type.Literal('configuration_account'), organizationId: IdParam }),
  Type.Object({ ...Theme, type: Type.Literal('configuration_space'), spaceId: IdParam }),
  Type.Object({ ...Theme, type: Type.Literal('configuration_site'), siteId: IdParam }),
  Type.Object({
    ...Theme,
    type: Type.Literal('configuration_contentsource'),
    organizationId: IdParam,
    spaceId: Type.Optional(IdParam),
  }),
  Type.Object({ ...Theme, type: Type.Literal('document'), spaceId: IdParam, editable: Type.Boolean() }),
]);
export type RenderContext = Static<typeof RenderContextSchema>;

export const RenderIntegrationUIBody = Type.Object(
  {
    componentId: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The component of the integration to render',
    }),
    props: AnyObject('Current properties of the UI'),
    state: Type.Optional(AnyObject('Current local state of the UI')),
    context: RenderContextSchema,
    action: Type.Optional(
      Type.Object(
        { action: Type.String({ minLength: 1, maxLength: 256 }) },
        { additionalProperties: true, maxProperties: 64, description: 'The action that re-renders the UI' },
      ),
    ),
  },
  {
    title: 'RenderIntegrationUI',
    examples: [
      {
        componentId: 'status',
        props: {},
        context: { type: 'document', spaceId: 's8Hd3KpW6qZr1XcV5nTa', editable: true, theme: 'light' },
      },
    ],
  },
);
export type RenderIntegrationUIBody = Static<typeof RenderIntegrationUIBody>;

/** The GET form: the same request, LZ-string compressed for a URL (compressToEncodedURIComponent). */
export const RenderIntegrationUIQuery = Type.Object(
  {
    request: Type.String({
      minLength: 1,
      maxLength: 4096,
      pattern: '^[A-Za-z0-9+\\- $]+$',
      description:
        'The request, JSON compressed with LZ-string’s compressToEncodedURIComponent (a `+` read as a space is taken back)',
    }),
  },
  { additionalProperties: false },
);
export type RenderIntegrationUIQuery = Static<typeof RenderIntegrationUIQuery>;

/** ContentKitRenderOutput, as the integration answered it once checked (render.ts). */
// No `type`: the serializer passes the checked answer on as it came.
export const RenderOutputSchema = Type.Unsafe<Record<string, unknown>>({
  title: 'ContentKitRenderOutput',
  description: 'An element to render with its state and props, or `{"type":"complete"}` with a return value',
});
