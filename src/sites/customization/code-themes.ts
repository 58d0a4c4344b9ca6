import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';

/** The spec's CustomizationCodeTheme: the names of the highlighting themes a site may pick for code blocks. */
export const CODE_THEMES = [
  'default-light',
  'default-dark',
  'monochrome-light',
  'monochrome-dark',
  'andromeeda',
  'aurora-x',
  'ayu-dark',
  'catppuccin-frappe',
  'catppuccin-latte',
  'catppuccin-macchiato',
  'catppuccin-mocha',
  'dark-plus',
  'dracula',
  'dracula-soft',
  'everforest-dark',
  'everforest-light',
  'github-dark',
  'github-dark-default',
  'github-dark-dimmed',
  'github-dark-high-contrast',
  'github-light',
  'github-light-default',
  'github-light-high-contrast',
  'gruvbox-dark-hard',
  'gruvbox-dark-medium',
  'gruvbox-dark-soft',
  'gruvbox-light-hard',
  'gruvbox-light-medium',
  'gruvbox-light-soft',
  'houston',
  'kanagawa-dragon',
  'kanagawa-lotus',
  'kanagawa-wave',
  'laserwave',
  'light-plus',
  'material-theme',
  'material-theme-darker',
  'material-theme-lighter',
  'material-theme-ocean',
  'material-theme-palenight',
  'min-dark',
  'min-light',
  'monokai',
  'night-owl',
  'nord',
  'one-dark-pro',
  'one-light',
  'plastic',
  'poimandres',
  'red',
  'rose-pine',
  'rose-pine-dawn',
  'rose-pine-moon',
  'slack-dark',
  'slack-ochin',
  'snazzy-light',
  'solarized-dark',
  'solarized-light',
  'synthwave-84',
  'tokyo-night',
  'vesper',
  'vitesse-black',
  'vitesse-dark',
  'vitesse-light',
] as const;

const ThemedCodeTheme = Type.Object(
  { light: StringEnum(CODE_THEMES), dark: StringEnum(CODE_THEMES) },
  { additionalProperties: false },
);

/** The code theme of the site's code blocks, and of its API reference pages. */
export const CodeThemeSchema = Type.Object(
  { default: ThemedCodeTheme, openapi: ThemedCodeTheme },
  { additionalProperties: false },
);

/** What a site shows before an admin picks a code theme. */
export const DEFAULT_CODE_THEME = {
  default: { light: 'default-light', dark: 'default-dark' },
  openapi: { light: 'default-light', dark: 'default-dark' },
} as const;
