import { Type, type Static } from '@sinclair/typebox';
import { IdParam, Nullable, StringEnum } from '../../core/schemas.js';
import { Icon, LocalizedString, SectionDescription, SectionTitle } from '../schemas.js';

export const ExternalLinkParams = Type.Object({
  organizationId: IdParam,
  siteId: IdParam,
  siteExternalLinkId: IdParam,
});

const LinkUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'Absolute http or https address the link opens',
});
/** GitBook's Expression allows an empty condition: it is taken as none. */
const LinkCondition = Type.String({
  maxLength: 1024,
  description: 'Expression deciding whether the visitor is shown the link; empty or null for always',
});
const Parent = Type.String({ minLength: 1, maxLength: 128, description: 'The section group to put the link in' });

export const AddExternalLinkBody = Type.Object(
  {
    title: SectionTitle,
    localizedTitle: Type.Optional(LocalizedString(128)),
    description: Type.Optional(Nullable(SectionDescription)),
    localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
    icon: Type.Optional(Nullable(Icon)),
    url: LinkUrl,
    parent: Type.Optional(Parent),
    draft: Type.Optional(Type.Boolean()),
    condition: Type.Optional(Nullable(LinkCondition)),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Status page', url: 'https://status.example.com', icon: 'signal' }],
  },
);
export type AddExternalLinkBody = Static<typeof AddExternalLinkBody>;

export const UpdateExternalLinkBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    localizedTitle: Type.Optional(Nullable(LocalizedString(128))),
    description: Type.Optional(Nullable(SectionDescription)),
    localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
    icon: Type.Optional(Nullable(Icon)),
    url: Type.Optional(LinkUrl),
    parent: Type.Optional(Nullable(Parent)),
    draft: Type.Optional(Type.Boolean()),
    condition: Type.Optional(Nullable(LinkCondition)),
  },
  { additionalProperties: false, examples: [{ title: 'Service status', parent: null, draft: false }] },
);
export type UpdateExternalLinkBody = Static<typeof UpdateExternalLinkBody>;

export const PreferHeaders = Type.Object({
  prefer: Type.Optional(
    StringEnum(['return=minimal', 'return=representation'] as const, {
      description: '`return=minimal` answers 204 without the changed link',
    }),
  ),
});
