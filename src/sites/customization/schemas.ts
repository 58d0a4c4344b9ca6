import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Emoji, StringEnum } from '../../core/schemas.js';
import { CodeThemeSchema } from './code-themes.js';
import { SocialAccountsSchema } from './social-accounts.js';

/**
 * The spec's SiteCustomizationSettings, field by field, closed, with limits
 * the spec leaves open: every string has a maximum length and every list a
 * maximum size, so one site's settings stay small enough to keep in a row and
 * to hand to every visitor of the published site.
 */

function closed<T extends TProperties>(properties: T): TObject<T> {
  return Type.Object(properties, { additionalProperties: false });
}

/** An id of something the settings point at (page, space, file, user…). */
const RefId = Type.String({ minLength: 1, maxLength: 128 });

export const Color = Type.String({
  pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$',
  description: 'A hex colour, #rgb or #rrggbb',
});

/**
 * An absolute http(s) address. The spec asks only for a URI; these addresses
 * are shown to visitors as links and images, where another scheme
 * (`javascript:`) would run in their browser.
 */
export const WebUrl = Type.String({ format: 'uri', maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://' });

/**
 * A link's target as written: http(s), mailto or tel, or relative to the site
 * (`/`, `#`, `?`, `.`). Anything else, `javascript:` first, is refused.
 */
const LinkUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^(?:[hH][tT][tT][pP][sS]?:|[mM][aA][iI][lL][tT][oO]:|[tT][eE][lL]:|[/#?.])',
});

const ThemedColor = closed({ light: Color, dark: Color });
const ThemedUrl = closed({ light: WebUrl, dark: WebUrl });

const CONTENT_REF_VARIANTS = {
  file: closed({ kind: Type.Literal('file'), file: RefId }),
  url: closed({ kind: Type.Literal('url'), url: LinkUrl }),
  page: closed({ kind: Type.Literal('page'), page: RefId, space: Type.Optional(RefId) }),
  anchor: closed({
    kind: Type.Literal('anchor'),
    anchor: Type.String({ minLength: 1, maxLength: 256 }),
    space: Type.Optional(RefId),
    page: Type.Optional(RefId),
  }),
  user: closed({ kind: Type.Literal('user'), user: RefId }),
  collection: closed({ kind: Type.Literal('collection'), collection: RefId }),
  space: closed({ kind: Type.Literal('space'), space: RefId }),
  'reusable-content': closed({
    kind: Type.Literal('reusable-content'),
    reusableContent: RefId,
    space: Type.Optional(RefId),
  }),
  openapi: closed({ kind: Type.Literal('openapi'), spec: RefId }),
};
type ContentRefKind = keyof typeof CONTENT_REF_VARIANTS;
const CONTENT_REF_KINDS = Object.keys(CONTENT_REF_VARIANTS) as ContentRefKind[];
export type ContentRef = { [K in ContentRefKind]: Static<(typeof CONTENT_REF_VARIANTS)[K]> }[ContentRefKind];

/**
 * The spec's ContentRef (a oneOf over `kind`) written as a chain of if/then on
 * `kind`: a refused reference is then explained by the rules of its own kind,
 * not by the first kind tried ("kind must be one of: file").
 */
function contentRefChain(kinds: ContentRefKind[]): object {
  const [kind, ...rest] = kinds;
  if (!kind) return {};
  return {
    if: { type: 'object', properties: { kind: { const: kind } } },
    then: CONTENT_REF_VARIANTS[kind],
    ...(rest.length > 0 ? { else: contentRefChain(rest) } : {}),
  };
}
export const ContentRefSchema = Type.Unsafe<ContentRef>({
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: CONTENT_REF_KINDS } },
  ...contentRefChain(CONTENT_REF_KINDS),
});

const ContentLink = closed({ title: Type.String({ maxLength: 64 }), to: ContentRefSchema });

const FONT_NAMES = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;
const MONOSPACE_FONT_NAMES = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;

/** A custom font: its faces, each a weight and the files to load it from. */
const FontDefinition = closed({
  id: RefId,
  custom: Type.Boolean(),
  fontFamily: Type.String({ minLength: 1, maxLength: 50 }),
  fontFaces: Type.Array(
    closed({
      weight: Type.Integer({ minimum: 1, maximum: 1000 }),
      sources: Type.Array(closed({ url: WebUrl, format: Type.Optional(StringEnum(['woff2', 'woff'] as const)) }), {
        minItems: 1,
        maxItems: 5,
      }),
    }),
    { minItems: 1, maxItems: 20 },
  ),
});

const Styling = closed({
  theme: StringEnum(['clean', 'muted', 'bold', 'gradient'] as const),
  primaryColor: ThemedColor,
  tint: Type.Optional(closed({ color: ThemedColor })),
  infoColor: ThemedColor,
  successColor: ThemedColor,
  warningColor: ThemedColor,
  dangerColor: ThemedColor,
  corners: StringEnum(['straight', 'rounded', 'circular'] as const),
  depth: StringEnum(['subtle', 'flat'] as const),
  links: StringEnum(['default', 'accent'] as const),
  font: Type.Union([StringEnum(FONT_NAMES), FontDefinition]),
  monospaceFont: Type.Union([StringEnum(MONOSPACE_FONT_NAMES), FontDefinition]),
  codeTheme: Type.Optional(CodeThemeSchema),
  background: StringEnum(['plain', 'match'] as const),
  icons: StringEnum(['regular', 'solid', 'duotone', 'light', 'thin'] as const),
  sidebar: closed({
    background: StringEnum(['default', 'filled'] as const),
    list: StringEnum(['default', 'pill', 'line'] as const),
  }),
  search: StringEnum(['prominent', 'subtle'] as const),
});

export const HeaderItemSchema = closed({
  title: Type.String({ maxLength: 64 }),
  style: Type.Optional(StringEnum(['link', 'button-primary', 'button-secondary'] as const)),
  to: Type.Union([ContentRefSchema, Type.Null()]),
  links: Type.Array(ContentLink, { maxItems: 20 }),
  /** An adaptive-content expression; checked against the site's adaptive schema on write. */
  condition: Type.Optional(Type.String({ minLength: 0, maxLength: 1024 })),
});

const Enabled = closed({ enabled: Type.Boolean() });

/** The spec's CustomizationPageActionType: what a published page's menu may offer. */
export const PAGE_ACTIONS = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

const settingsProperties = {
  title: Type.Optional(Type.String({ minLength: 2, maxLength: 128 })),
  styling: Styling,
  internationalization: closed({
    locale: StringEnum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const),
  }),
  favicon: Type.Union([closed({ icon: ThemedUrl }), closed({ emoji: Emoji }), closed({})]),
  header: closed({
    preset: StringEnum(['default', 'bold', 'contrast', 'custom', 'none'] as const),
    logo: Type.Optional(ThemedUrl),
    backgroundColor: Type.Optional(ThemedColor),
    linkColor: Type.Optional(ThemedColor),
    links: Type.Array(HeaderItemSchema, { maxItems: 20 }),
  }),
  footer: closed({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(
      closed({ title: Type.String({ maxLength: 64 }), links: Type.Array(ContentLink, { maxItems: 20 }) }),
      {
        maxItems: 10,
      },
    ),
    copyright: Type.Optional(Type.String({ maxLength: 300 })),
  }),
  announcement: Type.Optional(
    closed({
      enabled: Type.Boolean(),
      message: Type.String({ minLength: 2, maxLength: 128 }),
      link: Type.Optional(ContentLink),
      style: StringEnum(['info', 'warning', 'danger', 'success'] as const),
    }),
  ),
  themes: closed({ default: StringEnum(['light', 'dark'] as const), toggeable: Type.Boolean() }),
  // 0.143.2 requires pdf and git, 0.202.0 dropped them for pageActions.items: either may be sent.
  pdf: Type.Optional(Enabled),
  feedback: Enabled,
  ai: closed({ mode: StringEnum(['none', 'search', 'assistant'] as const) }),
  advancedCustomization: Enabled,
  git: Type.Optional(closed({ showEditLink: Type.Boolean() })),
  pageActions: closed({
    externalAI: Type.Optional(Type.Boolean()),
    markdown: Type.Optional(Type.Boolean()),
    mcp: Type.Optional(Type.Boolean()),
    items: Type.Optional(
      Type.Array(StringEnum(PAGE_ACTIONS), {
        maxItems: PAGE_ACTIONS.length,
        uniqueItems: true,
        description: 'The page menu’s actions in order; when given, it decides pdf, git and the switches beside it',
      }),
    ),
  }),
  externalLinks: closed({ target: StringEnum(['self', 'blank'] as const) }),
  pagination: Enabled,
  trademark: Enabled,
  privacyPolicy: closed({ url: Type.Optional(WebUrl) }),
  socialPreview: closed({ url: Type.Optional(WebUrl) }),
  insights: closed({ trackingCookie: Type.Boolean() }),
  socialAccounts: Type.Optional(SocialAccountsSchema),
};

/** A complete set of settings: the defaults with a brand colour, a header link and an announcement. */
function exampleSettings(): SiteCustomizationSettings {
  const themed = (color: string) => ({ light: color, dark: color });
  const enabled = (on: boolean) => ({ enabled: on });
  return {
    title: 'Acme Docs',
    styling: {
      theme: 'clean',
      primaryColor: themed('#0B7A75'),
      infoColor: themed('#787878'),
      successColor: themed('#00C950'),
      warningColor: themed('#FE9A00'),
      dangerColor: themed('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: {
      preset: 'default',
      links: [{ title: 'Support', to: { kind: 'url', url: 'https://acme.example/support' }, links: [] }],
    },
    footer: { groups: [], copyright: '© Acme' },
    announcement: { enabled: true, message: 'Version 2 is out', style: 'info' },
    themes: { default: 'light', toggeable: true },
    pdf: enabled(false),
    feedback: enabled(true),
    ai: { mode: 'search' },
    advancedCustomization: enabled(false),
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    externalLinks: { target: 'blank' },
    pagination: enabled(true),
    trademark: enabled(true),
    privacyPolicy: { url: 'https://acme.example/privacy' },
    socialPreview: {},
    insights: { trackingCookie: false },
  };
}

/** The settings as the spec names them, registered with its `$id` for references from other routes. */
export const SiteCustomizationSettingsSchema = Type.Object(settingsProperties, {
  $id: 'SiteCustomizationSettings',
  additionalProperties: false,
});
export type SiteCustomizationSettings = Static<typeof SiteCustomizationSettingsSchema>;

/**
 * The same schema without its `$id`, for this domain's routes: it works
 * whether or not the app registers the `$id` one, which two inline copies of
 * one `$id` would not.
 */
export const SiteCustomizationSettingsBody = Type.Object(settingsProperties, {
  additionalProperties: false,
  examples: [exampleSettings()],
});

/**
 * The answer's schema: the body's, with the favicon as one object. What is
 * answered was checked on the way in, and the serializer, which picks a
 * union's branch by validating, knows no `emoji` format.
 */
export const SiteCustomizationSettingsResponse = Type.Object(
  {
    ...settingsProperties,
    favicon: Type.Object({ icon: Type.Optional(ThemedUrl), emoji: Type.Optional(Type.String()) }),
  },
  { additionalProperties: false },
);

export const GetCustomizationQuery = Type.Object(
  { unmasked: Type.Optional(Type.Boolean({ description: 'Deprecated by GitBook; accepted and ignored' })) },
  { additionalProperties: false },
);
