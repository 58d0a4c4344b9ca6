import { Type, type Static } from '@sinclair/typebox';
import { DateTime, NullableString, StringEnum, Url } from '../../core/schemas.js';

export const MAX_EVENTS_PER_CALL = 100;
const Short = Type.String({ maxLength: 256 });
const LocationRef = NullableString({ maxLength: 128 });

/** The event types of the spec's `SiteInsightsEventType`, recorded here or not. */
export const SPEC_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;

const FeedbackRating = StringEnum(['bad', 'ok', 'good'] as const);

const EventSession = Type.Object({
  visitorId: Short,
  sessionId: Short,
  cookies: Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 4096 }), {
    maxProperties: 64,
    description: 'Not kept, nor read: insights set and read no cookie',
  }),
  ip: Type.Optional(Type.String({ maxLength: 64, description: 'Not kept, nor read' })),
  userAgent: Type.String({ maxLength: 1024, description: 'Read for the browser, system, device and bot; not kept' }),
  language: NullableString({ maxLength: 256 }),
  referrer: Type.Union([Type.Null(), Type.Literal(''), Url]),
  visitorAuthToken: Type.Optional(
    NullableString({ maxLength: 8192, description: 'Only whether there is one is kept' }),
  ),
  visitorAuthClaims: Type.Optional(
    Type.Record(Type.String({ maxLength: 256 }), Type.Unknown(), {
      maxProperties: 100,
      description: 'Only whether there are any is kept',
    }),
  ),
});

const EventLocation = Type.Object({
  url: Url,
  displayContext: Type.Optional(StringEnum(['site', 'server', 'embed', 'mcp'] as const)),
  siteSection: LocationRef,
  siteSpace: LocationRef,
  siteShareKey: LocationRef,
  space: LocationRef,
  revision: LocationRef,
  page: LocationRef,
});

/**
 * One event: the spec's `SiteInsightsEvent` union, as one object whose
 * type-specific fields are optional here and required by its type in the
 * action (which names what is missing). Fields of types not recorded here
 * are let through to be refused with their type.
 */
export const TrackedEvent = Type.Object({
  type: StringEnum(SPEC_EVENT_TYPES),
  session: EventSession,
  location: EventLocation,
  timestamp: Type.Optional(DateTime),
  query: Type.Optional(Type.String({ maxLength: 512 })),
  result: Type.Optional(
    Type.Union([
      Type.Object({ spaceId: Short, pageId: Short }, { additionalProperties: false }),
      Type.Object({ recordId: Short }, { additionalProperties: false }),
    ]),
  ),
  feedback: Type.Optional(
    Type.Object(
      { rating: FeedbackRating, comment: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })) },
      { additionalProperties: false },
    ),
  ),
  link: Type.Optional(
    Type.Object(
      {
        target: Type.Object({
          kind: Type.String({ maxLength: 32 }),
          url: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
        position: StringEnum(['announcement', 'header', 'footer', 'sidebar', 'content'] as const),
      },
      { additionalProperties: false },
    ),
  ),
  markdownSource: Type.Optional(StringEnum(['page-action'] as const)),
  llmsVariant: Type.Optional(StringEnum(['standard', 'full'] as const)),
});
export type TrackedEvent = Static<typeof TrackedEvent>;

export const TrackEventsBody = Type.Object(
  { events: Type.Array(TrackedEvent, { maxItems: MAX_EVENTS_PER_CALL }) },
  {
    additionalProperties: false,
    examples: [
      {
        events: [
          {
            type: 'page_view',
            session: {
              visitorId: 'v1',
              sessionId: 's1',
              cookies: {},
              userAgent: 'Mozilla/5.0',
              language: 'en',
              referrer: null,
            },
            location: {
              url: 'https://docs.example.com/guide',
              siteSection: null,
              siteSpace: null,
              siteShareKey: null,
              space: null,
              revision: null,
              page: null,
            },
          },
        ],
      },
    ],
  },
);
export type TrackEventsBody = Static<typeof TrackEventsBody>;

/** Every column the spec names; those this service does not record are refused by name in the action. */
export const SPEC_COLUMNS = [
  'datetime',
  'dayOfWeek',
  'hourOfDay',
  'url',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorGeoPoint',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventLLMSVariant',
  'eventPageNotFoundType',
  'eventMarkdownSource',
  'eventSearchQuery',
  'eventSearchResultRecordId',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'pageFeedbackRating',
  'askResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorAuthenticated',
  'visitorClaimProperty',
  'visitorClaim',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
] as const;
export type ColumnName = (typeof SPEC_COLUMNS)[number];

export const TimeInterval = StringEnum(['hour', 'day', 'week', 'month'] as const);
export type TimeInterval = Static<typeof TimeInterval>;

export const QueryColumn = Type.Object(
  {
    column: StringEnum(SPEC_COLUMNS),
    interval: Type.Optional(TimeInterval),
    precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })),
    claim: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type QueryColumn = Static<typeof QueryColumn>;

export const QueryOperator = StringEnum([
  'in',
  'notIn',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
] as const);
export type QueryOperator = Static<typeof QueryOperator>;

export const QueryFilter = Type.Object(
  {
    column: StringEnum(SPEC_COLUMNS),
    claim: Type.Optional(Type.String({ maxLength: 256 })),
    // Each column's values are checked by the action against that column's type.
    values: Type.Array(Type.Unknown(), { maxItems: 100 }),
    operator: Type.Optional(QueryOperator),
  },
  { additionalProperties: false },
);
export type QueryFilter = Static<typeof QueryFilter>;

export const RANGE_PRESETS = ['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours'] as const;

export const AggregateEventsBody = Type.Object(
  {
    select: Type.Optional(Type.Array(QueryColumn, { maxItems: 20 })),
    where: Type.Optional(Type.Array(QueryFilter, { maxItems: 20 })),
    groupBy: Type.Optional(Type.Array(QueryColumn, { maxItems: 5 })),
    order: Type.Optional(
      Type.Object(
        { by: QueryColumn, direction: StringEnum(['asc', 'desc'] as const) },
        { additionalProperties: false },
      ),
    ),
    range: Type.Union([
      StringEnum(RANGE_PRESETS),
      Type.Object({ from: DateTime, to: DateTime }, { additionalProperties: false }),
    ]),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }],
        groupBy: [{ column: 'datetime', interval: 'day' }],
        where: [{ column: 'eventType', values: ['page_view'] }],
        range: 'last7Days',
      },
    ],
  },
);
export type AggregateEventsBody = Static<typeof AggregateEventsBody>;

export const AggregationResult = Type.Object({
  columns: Type.Array(Type.Object({ column: Type.String(), values: Type.Array(Type.Unknown()) })),
});
export type AggregationResult = Static<typeof AggregationResult>;

export const VisitorSegmentSchema = Type.Object({
  title: Type.String(),
  claims: Type.Record(Type.String(), Type.Unknown()),
  events: Type.Number(),
  visitors: Type.Number(),
  sessions: Type.Number(),
});
export type VisitorSegment = Static<typeof VisitorSegmentSchema>;
