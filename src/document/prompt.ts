import { booleanAttribute, choiceAttribute, closingTag, tagLine, type TagAttributes } from './tag-attributes.js';
import type { DocumentBlockCode, DocumentBlockPrompt, PromptExpansion } from './types.js';

/**
 * Prompts for an AI assistant: `{% prompt description="…" icon="…"
 * defaultExpanded="full" %}`, the prompt's text as one fenced code block,
 * and `{% endprompt %}`.
 */

export type PromptOptions = DocumentBlockPrompt['data'];

const EXPANSIONS: readonly PromptExpansion[] = ['hidden', 'partial', 'full'];
/** The newest spec's `Icon`: a name of at most 50 characters. */
export const MAX_ICON_LENGTH = 50;

/** An `icon="…"` value the spec takes: undefined when absent, null when too long or empty. */
export function iconAttribute(attributes: TagAttributes): string | null | undefined {
  const icon = attributes.get('icon');
  if (icon === undefined) return undefined;
  return icon !== '' && icon.length <= MAX_ICON_LENGTH ? icon : null;
}

/** What a `{% prompt %}` tag says, or null without a description or with a value it cannot take. */
export function readPromptTag(attributes: TagAttributes): PromptOptions | null {
  const description = attributes.get('description');
  const icon = iconAttribute(attributes);
  const openInAIProviders = booleanAttribute(attributes, 'openInAIProviders');
  const defaultExpanded = choiceAttribute(attributes, 'defaultExpanded', EXPANSIONS);
  if (description === undefined || icon === null || openInAIProviders === null || defaultExpanded === null) return null;
  return {
    description,
    ...(icon !== undefined ? { icon } : {}),
    ...(openInAIProviders !== undefined ? { openInAIProviders } : {}),
    ...(defaultExpanded !== undefined ? { defaultExpanded } : {}),
  };
}

export function promptBlock(options: PromptOptions, code: DocumentBlockCode): DocumentBlockPrompt {
  return { object: 'block', type: 'prompt', data: options, nodes: [code] };
}

/** The `{% prompt %}` and `{% endprompt %}` lines of a prompt's data. */
export function promptTags(data: Record<string, unknown>): [string, string] {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const openIn = data.openInAIProviders;
  return [
    tagLine('prompt', [
      ['description', text(data.description) ?? ''],
      ['icon', text(data.icon)],
      ['openInAIProviders', typeof openIn === 'boolean' ? String(openIn) : undefined],
      ['defaultExpanded', EXPANSIONS.find((e) => e === data.defaultExpanded)],
    ]),
    closingTag('prompt'),
  ];
}
