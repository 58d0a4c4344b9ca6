import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, StringEnum } from '../../core/schemas.js';

// The spec's pattern: a path of unreserved or percent-encoded characters, with at most a final `*` or `/*`;
// without its two lookaheads, which its character classes already imply (and one of which backtracks polynomially).
export const SOURCE_PATTERN =
  '^\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$';
export const MAX_SOURCE_LENGTH = 512;

export const SourcePath = Type.String({
  minLength: 2,
  maxLength: MAX_SOURCE_LENGTH,
  pattern: SOURCE_PATTERN,
  description: 'The path to redirect from; a final `*` or `/*` matches any rest',
});

const Ref = Type.String({ minLength: 1, maxLength: 128 });

const ToSection = Type.Object(
  { kind: Type.Literal('site-section'), siteSectionId: Ref },
  { additionalProperties: false },
);
const ToSiteSpace = Type.Object(
  { kind: Type.Literal('site-space'), siteSpaceId: Ref },
  { additionalProperties: false },
);
const ToPage = Type.Object(
  { kind: Type.Literal('site-page'), siteSpaceId: Ref, pageId: Ref },
  { additionalProperties: false },
);
// Visitors' browsers are sent there: an absolute http(s) address that an admin chose, never another scheme.
const ToExternal = Type.Object(
  {
    kind: Type.Literal('external'),
    url: Type.String({ format: 'uri', maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://' }),
  },
  { additionalProperties: false },
);
/** A page named by its path in a space of the site: stored as the page it names when written. */
const ToPath = Type.Object(
  { kind: Type.Literal('path'), spaceId: Ref, path: Type.String({ minLength: 0, maxLength: 1024 }) },
  { additionalProperties: false },
);

export const RedirectDestination = Type.Union([ToSection, ToSiteSpace, ToPage, ToExternal]);
export type RedirectDestination = Static<typeof RedirectDestination>;
export const InputDestination = Type.Union([ToSection, ToSiteSpace, ToPage, ToExternal, ToPath]);
export type InputDestination = Static<typeof InputDestination>;

export const SiteRedirectSchema = Type.Object({
  object: Type.Literal('site-redirect'),
  id: Type.String(),
  source: Type.String(),
  draft: Type.Boolean({ description: 'Whether the redirect is a draft, not live' }),
  captureWildcard: Type.Boolean({ description: 'Whether the rest a `*` matched is appended to the destination' }),
  permanent: Type.Boolean({ description: 'Served as 308 when permanent, else 307' }),
  destination: RedirectDestination,
  createdAt: DateTime,
  updatedAt: Type.Optional(DateTime),
});
export type SiteRedirect = Static<typeof SiteRedirectSchema>;

export const CreateRedirectBody = Type.Object(
  {
    source: SourcePath,
    destination: InputDestination,
    captureWildcard: Type.Optional(Type.Boolean({ default: false })),
    draft: Type.Optional(Type.Boolean({ default: false })),
    permanent: Type.Optional(Type.Boolean({ default: false })),
  },
  {
    additionalProperties: false,
    examples: [{ source: '/old-guide', destination: { kind: 'external', url: 'https://example.com/guide' } }],
  },
);
export type CreateRedirectBody = Static<typeof CreateRedirectBody>;

export const UpdateRedirectBody = Type.Object(
  {
    source: Type.Optional(SourcePath),
    destination: Type.Optional(RedirectDestination),
    captureWildcard: Type.Optional(Type.Boolean()),
    draft: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ permanent: true }] },
);
export type UpdateRedirectBody = Static<typeof UpdateRedirectBody>;

/** Redirects one bulk request may carry: the spec's bound. */
export const MAX_BULK_REDIRECTS = 500;

const PublishItem = Type.Object(
  { source: SourcePath, intent: Type.Literal('publish') },
  { additionalProperties: false },
);
const UpsertItem = Type.Object(
  {
    source: SourcePath,
    // No defaults here: inside a union they are not applied. Absent intent is live, absent captureWildcard false.
    intent: Type.Optional(StringEnum(['live', 'draft'] as const)),
    captureWildcard: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: Type.Union([InputDestination, Type.Null()], { description: 'null deletes the redirect' }),
  },
  { additionalProperties: false },
);
export type UpsertItem = Static<typeof UpsertItem>;

export const BulkRedirectsBody = Type.Object(
  { redirects: Type.Array(Type.Union([PublishItem, UpsertItem]), { minItems: 1, maxItems: MAX_BULK_REDIRECTS }) },
  {
    additionalProperties: false,
    examples: [{ redirects: [{ source: '/a', destination: { kind: 'external', url: 'https://example.com/' } }] }],
  },
);
export type BulkRedirectsBody = Static<typeof BulkRedirectsBody>;

const withId = (status: 'created' | 'updated' | 'published') =>
  Type.Object({ status: Type.Literal(status), source: Type.String(), draft: Type.Boolean(), id: Type.String() });
export const BulkResult = Type.Union([
  withId('created'),
  withId('updated'),
  Type.Object({ status: Type.Literal('deleted'), source: Type.String(), draft: Type.Boolean() }),
  withId('published'),
  Type.Object({ status: Type.Literal('error'), source: Type.String(), draft: Type.Boolean(), error: Type.String() }),
]);
export type BulkResult = Static<typeof BulkResult>;
export const BulkRedirectsResponse = Type.Object({ results: Type.Array(BulkResult) });

export const REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const;
export type RedirectOrder = (typeof REDIRECT_ORDERS)[number];

export const ListRedirectsQuery = Type.Object(
  {
    ...ListQuery,
    search: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SOURCE_LENGTH, description: 'Part of a source' })),
    draft: Type.Optional(Type.Boolean({ default: false, description: 'Drafts instead of live redirects' })),
    orderBy: Type.Optional(
      StringEnum(REDIRECT_ORDERS, {
        default: 'createdAt',
        description: 'Newest created or changed first, or by source',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListRedirectsQuery = Static<typeof ListRedirectsQuery>;

export const RedirectBySourceQuery = Type.Object(
  {
    source: SourcePath,
    shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Ignored: members only' })),
  },
  { additionalProperties: false },
);

export const ResolvedRedirect = Type.Object({
  redirect: SiteRedirectSchema,
  target: Type.String({ description: 'The address the redirect sends visitors to' }),
});
export type ResolvedRedirect = Static<typeof ResolvedRedirect>;

export const RedirectParams = Type.Object({ organizationId: IdParam, siteId: IdParam, siteRedirectId: IdParam });
