import type { Paragraph } from 'mdast';
import { linkLine } from './content-ref.js';
import { imageRefFromUrl } from './links.js';
import { booleanAttribute, closingTag, tagLine, type TagAttributes } from './tag-attributes.js';
import type { DocumentBlockOpenAPI, DocumentBlockOpenAPIOperation, DocumentBlockOpenAPISchemas } from './types.js';

/**
 * OpenAPI blocks. GitBook writes an operation of a document named by URL or
 * file (the spec's `swagger` block) as `{% openapi src="…" path="/pet"
 * method="post" %}`, a link to the document, `{% endopenapi %}`; an
 * operation of a specification of the organization as `{% openapi-operation
 * spec="petstore" path="/pet" method="post" %}` … `{% endopenapi-operation %}`;
 * and schemas as `{% openapi-schemas spec="petstore" schemas="Pet"
 * grouped="false" %}`, their title, `{% endopenapi-schemas %}`.
 */

export interface OperationPointer {
  path: string;
  method: string;
}

function pointer(attributes: TagAttributes): OperationPointer | null {
  const path = attributes.get('path');
  const method = attributes.get('method');
  return path && method ? { path, method } : null;
}

export function readOpenAPITag(attributes: TagAttributes): (OperationPointer & { src: string }) | null {
  const src = attributes.get('src');
  const operation = pointer(attributes);
  return src && operation ? { src, ...operation } : null;
}

export function readOperationTag(attributes: TagAttributes): (OperationPointer & { spec: string }) | null {
  const spec = attributes.get('spec');
  const operation = pointer(attributes);
  return spec && operation ? { spec, ...operation } : null;
}

export interface SchemasOptions {
  spec: string;
  schemas: string[];
  grouped?: boolean;
}

/** Schemas are named in one attribute, separated by commas. */
export function readSchemasTag(attributes: TagAttributes): SchemasOptions | null {
  const spec = attributes.get('spec');
  const schemas = (attributes.get('schemas') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const grouped = booleanAttribute(attributes, 'grouped');
  if (!spec || schemas.length === 0 || grouped === null) return null;
  return grouped === undefined ? { spec, schemas } : { spec, schemas, grouped };
}

/** The swagger block of a tag; the link on the line after it, where page and file paths are resolved, wins over `src`. */
export function openAPIBlock(tag: OperationPointer & { src: string }, linkUrl: string | null): DocumentBlockOpenAPI {
  const { path, method } = tag;
  return {
    object: 'block',
    type: 'swagger',
    data: { ref: imageRefFromUrl(linkUrl ?? tag.src), path, method },
    isVoid: true,
  };
}

export function operationBlock(tag: OperationPointer & { spec: string }): DocumentBlockOpenAPIOperation {
  const { spec, path, method } = tag;
  return {
    object: 'block',
    type: 'openapi-operation',
    data: { ref: { kind: 'openapi', spec }, path, method },
    isVoid: true,
  };
}

export function schemasBlock({ spec, schemas, grouped }: SchemasOptions): DocumentBlockOpenAPISchemas {
  const data = { ref: { kind: 'openapi' as const, spec }, schemas, ...(grouped === undefined ? {} : { grouped }) };
  return { object: 'block', type: 'openapi-schemas', data, isVoid: true };
}

const text = (value: string): Paragraph => ({ type: 'paragraph', children: [{ type: 'text', value }] });

/** The lines of a swagger block whose document has the URL `src`. */
export function openAPILines(src: string, path: string, method: string): [string, Paragraph, string] {
  return [
    tagLine('openapi', [
      ['src', src],
      ['path', path],
      ['method', method],
    ]),
    linkLine(src),
    closingTag('openapi'),
  ];
}

/** The lines of an operation of the specification `spec`; GitBook puts the specification's name between the tags. */
export function operationLines(spec: string, path: string, method: string): [string, Paragraph, string] {
  return [
    tagLine('openapi-operation', [
      ['spec', spec],
      ['path', path],
      ['method', method],
    ]),
    text(`OpenAPI ${spec}`),
    closingTag('openapi-operation'),
  ];
}

/** The lines of schemas, with the title GitBook shows for them between the tags. */
export function schemasLines(
  spec: string,
  schemas: string[],
  grouped: boolean | undefined,
): [string, Paragraph, string] {
  return [
    tagLine('openapi-schemas', [
      ['spec', spec],
      ['schemas', schemas.join(',')],
      ['grouped', grouped === undefined ? undefined : String(grouped)],
    ]),
    text(`The ${schemas.join(', ')} object`),
    closingTag('openapi-schemas'),
  ];
}
