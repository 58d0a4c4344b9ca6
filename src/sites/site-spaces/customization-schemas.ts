import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { SiteCustomizationSettingsBody } from '../customization/schemas.js';

/**
 * The spec's override of a site's customization for one site space: every
 * field optional, and null resets it to the site's. Built from the site's own
 * field schemas, so an override obeys the same limits as the site's settings.
 * The spec's `localizedTitle` is not a setting of a site here, so it is
 * refused rather than silently dropped.
 */

function closed<T extends TProperties>(properties: T): TObject<T> {
  return Type.Object(properties, { additionalProperties: false });
}

/** A field that may be left out (unchanged) or set to null (reset to the site's). */
const resettable = <T extends TSchema>(schema: T) =>
  Type.Optional(Type.Union([Type.Optional(schema, false), Type.Null()]));

const site = SiteCustomizationSettingsBody.properties;
const styling = site.styling.properties;
const header = site.header.properties;
const footer = site.footer.properties;

const switchOverride = closed({ enabled: Type.Union([Type.Boolean(), Type.Null()]) });

export const SiteSpaceCustomizationBody = Type.Object(
  {
    title: resettable(site.title),
    styling: Type.Optional(
      closed({
        theme: resettable(styling.theme),
        primaryColor: resettable(styling.primaryColor),
        infoColor: resettable(styling.infoColor),
        successColor: resettable(styling.successColor),
        warningColor: resettable(styling.warningColor),
        dangerColor: resettable(styling.dangerColor),
        tint: resettable(styling.tint),
        corners: resettable(styling.corners),
        depth: resettable(styling.depth),
        links: resettable(styling.links),
        icons: resettable(styling.icons),
        sidebar: Type.Optional(
          closed({
            background: resettable(styling.sidebar.properties.background),
            list: resettable(styling.sidebar.properties.list),
          }),
        ),
        search: resettable(styling.search),
        background: resettable(styling.background),
        codeTheme: resettable(styling.codeTheme),
      }),
    ),
    internationalization: Type.Optional(closed({ locale: resettable(site.internationalization.properties.locale) })),
    favicon: resettable(site.favicon),
    announcement: site.announcement,
    header: Type.Optional(
      closed({
        preset: resettable(header.preset),
        logo: resettable(header.logo),
        backgroundColor: resettable(header.backgroundColor),
        linkColor: resettable(header.linkColor),
        links: resettable(header.links),
      }),
    ),
    footer: Type.Optional(
      closed({
        logo: resettable(footer.logo),
        groups: resettable(footer.groups),
        copyright: resettable(footer.copyright),
      }),
    ),
    themes: Type.Optional(
      closed({
        default: resettable(site.themes.properties.default),
        toggeable: resettable(site.themes.properties.toggeable),
      }),
    ),
    feedback: Type.Optional(switchOverride),
    externalLinks: Type.Optional(closed({ target: Type.Union([site.externalLinks.properties.target, Type.Null()]) })),
    pagination: Type.Optional(switchOverride),
    trademark: Type.Optional(switchOverride),
    privacyPolicy: Type.Optional(closed({ url: resettable(site.privacyPolicy.properties.url) })),
    socialPreview: Type.Optional(closed({ url: resettable(site.socialPreview.properties.url) })),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Acme API', styling: { primaryColor: { light: '#0B7A75', dark: '#4FD1C5' } } }],
  },
);
export type SiteSpaceCustomizationBody = Static<typeof SiteSpaceCustomizationBody>;
