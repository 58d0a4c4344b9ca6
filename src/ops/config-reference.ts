import { writeFile } from 'node:fs/promises';
import type { TSchema } from '@sinclair/typebox';
import { settingsOf, type Setting } from '../core/config-schema.js';

/** Where the reference lives, from the repository's root. */
export const CONFIGURATION_REFERENCE = 'docs/configuration.md';

const HEADER = `# Configuration

Quire reads its settings from environment variables (\`.env.example\` lists
them all). Every setting is checked at start: a bad value stops the
service with a message naming each bad variable. In production
(\`NODE_ENV=production\`, as the Docker image sets) \`SECRET_KEY\` and
\`ENCRYPTION_KEY\` are required.

This page is generated from the configuration schema (\`src/core/config-schema.ts\`)
by \`npm run docs:config\`; edit the schema, not this page.
`;

/** The reference page for every setting of the schema: its variable, type, default and what it does. */
export function configurationReference(settings: Setting[] = settingsOf()): string {
  const rows = settings.map(
    ({ env, schema }) =>
      `| \`${env}\` | ${cell(typeOf(schema))} | ${cell(defaultOf(schema))} | ${cell(String(schema.description))} |`,
  );
  return [HEADER, '| Variable | Type | Default | What it does |', '| --- | --- | --- | --- |', ...rows, ''].join('\n');
}

/** Writes the reference page to `path`. */
export async function writeConfigurationReference(path: string = CONFIGURATION_REFERENCE): Promise<void> {
  await writeFile(path, configurationReference());
}

/** The value's type and bounds, as the checks at start apply them. */
function typeOf(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) {
    return `one of ${(schema.anyOf as TSchema[]).map((member) => `\`${String(member.const)}\``).join(', ')}`;
  }
  switch (schema.type) {
    case 'boolean':
      return '`true` or `false`';
    case 'integer':
    case 'number':
      return [schema.type, bounds(schema)].filter(Boolean).join(', ');
    default:
      return ['text', lengths(schema)].filter(Boolean).join(', ');
  }
}

function bounds(schema: TSchema): string {
  const low = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
  const above = schema.minimum === undefined && schema.exclusiveMinimum !== undefined;
  if (low !== undefined && schema.maximum !== undefined) {
    return above ? `above ${low}, at most ${schema.maximum}` : `${low}–${schema.maximum}`;
  }
  if (low !== undefined) return above ? `above ${low}` : `at least ${low}`;
  return schema.maximum === undefined ? '' : `at most ${schema.maximum}`;
}

function lengths(schema: TSchema): string {
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number };
  if (minLength !== undefined && maxLength !== undefined) return `${minLength}–${maxLength} characters`;
  if (minLength !== undefined && minLength > 1) return `at least ${minLength} characters`;
  if (maxLength !== undefined) return `at most ${maxLength} characters`;
  return '';
}

/** The default as written in the schema, what a computed one means, or that the setting is unset. */
function defaultOf(schema: TSchema): string {
  if (typeof schema.defaultText === 'string') return schema.defaultText;
  if (schema.default !== undefined) return `\`${String(schema.default)}\``;
  return '*(unset)*';
}

/** Text as one table cell: on one line, its pipes escaped. */
function cell(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .join(' ')
    .replace(/\|/g, '\\|');
}
