import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { slugify } from '../../core/slug.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import { requireFullMembership } from '../../access/membership.js';
import type { Context } from '../../context.js';
import type { JSONDocument } from '../../document/index.js';
import type { SpecWithOutline } from '../../specs/outline-queries.js';
import { generatePages, infoMarkdown, modelsMarkdown, operationsMarkdown, UNTAGGED } from '../computed.js';
import { presentGeneratedPage } from '../page-present.js';
import { swapMarkdownForDocument } from '../present.js';
import type { PageState } from '../tree.js';
import { OpenAPIDocumentSource, OpenAPIRevisionSource, type ComputedBody } from './schemas.js';

const INTEGRATION_TYPE = /^integration:[^:]+:[^:]+$/;

/**
 * The source as `schema` has it, or a 400 saying why: OpenAPI sources run
 * here; a translation needs GitBook's hosted translation service, and an
 * integration's content is made by its own code, neither of which runs here.
 */
function openAPISourceOf<T extends TSchema>(schema: T, source: ComputedBody['source']) {
  if (source.type === 'builtin:translation')
    throw new BadRequestError(
      'body/source/type builtin:translation is computed by GitBook’s hosted translation service, which does not run here',
    );
  if (INTEGRATION_TYPE.test(source.type))
    throw new BadRequestError(
      'body/source/type names content an integration computes in its own code, which this service does not run',
    );
  if (source.type !== 'builtin:openapi')
    throw new BadRequestError('body/source/type must be builtin:openapi, builtin:translation or integration:…');
  const error = Value.Errors(schema, source).First();
  if (error) throw new BadRequestError(`body/source${error.path} ${error.message}`);
  return source as Static<T>;
}

/**
 * The spec a source depends on, for a caller with a role on the space who is
 * a member of its organization (specs are the organization's, read by its
 * members): what the computed pages of the space would show of it.
 */
async function specFor(context: Context, userId: string, spaceId: string, slug: string) {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  await requireFullMembership(
    context.db,
    space.organization_id,
    userId,
    'compute content from the organization’s specs',
  );
  const spec = await context.specOutlines(space.organization_id, [slug]);
  const found = spec.get(slug);
  if (!found) throw new NotFoundError('No OpenAPI spec with this slug and a processed version in the organization');
  return { space, spec: found };
}

function tagOperations(spec: SpecWithOutline, tag: string) {
  const operations = spec.outline.operations.filter((operation) =>
    operation.tags.length > 0 ? operation.tags.includes(tag) : tag === UNTAGGED,
  );
  if (operations.length === 0 && !spec.outline.tags.some((known) => known.name === tag))
    throw new NotFoundError('No tag with this name in the OpenAPI spec');
  return operations;
}

/** The markdown of the one page a document source names. */
function documentMarkdown(spec: SpecWithOutline, props: OpenAPIDocumentSource['props']): string {
  switch (props.doc) {
    case 'models':
      return modelsMarkdown(spec.outline.schemas ?? []);
    case 'info':
      return infoMarkdown(
        spec,
        spec.outline.tags.map((tag) => tag.name),
      );
    case 'operations':
    case 'tag': {
      const description = spec.outline.tags.find((tag) => tag.name === props.page)?.description;
      return operationsMarkdown(description, tagOperations(spec, props.page));
    }
    case 'operation': {
      const method = props.method.toLowerCase();
      const operation = spec.outline.operations.find((known) => known.path === props.page && known.method === method);
      if (!operation) throw new NotFoundError('No operation with this path and method in the OpenAPI spec');
      return operationsMarkdown(undefined, [operation]);
    }
  }
}

const toDocument = async (context: Context, markdown: string, label: string) =>
  JSON.parse(await context.conversions.toDocumentJson(markdown, label)) as JSONDocument;

/** The document an OpenAPI source makes, made from the spec's newest version, as JSON text. */
export async function computeDocument(
  context: Context,
  userId: string,
  spaceId: string,
  body: ComputedBody,
): Promise<string> {
  const source = openAPISourceOf(OpenAPIDocumentSource, body.source);
  const { spec } = await specFor(context, userId, spaceId, source.dependencies.spec.ref.spec);
  const markdown = documentMarkdown(spec, source.props);
  return JSON.stringify(await toDocument(context, markdown, 'the computed document'));
}

/**
 * The pages an OpenAPI source makes, as a computed page of the space would
 * show them below itself (a page per tag, and one of models where asked for),
 * with ids made from the seed; no files and no reusable contents.
 */
export async function computeRevision(
  context: Context,
  userId: string,
  spaceId: string,
  body: ComputedBody,
): Promise<string> {
  const source = openAPISourceOf(OpenAPIRevisionSource, body.source);
  const { space, spec } = await specFor(context, userId, spaceId, source.dependencies.spec.ref.spec);
  const now = context.clock.now();
  const root: PageState = {
    pageId: body.seed,
    versionId: body.seed,
    parentId: null,
    position: 'a0',
    type: 'computed',
    title: spec.outline.info.title,
    slug: slugify(spec.outline.info.title),
    emoji: null,
    icon: null,
    description: null,
    documentId: null,
    layout: null,
    cover: null,
    variables: {},
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    target: null,
    href: null,
    computed: {
      type: 'builtin:openapi',
      props: source.props,
      dependencies: { spec: { ref: source.dependencies.spec.ref } },
    },
    pageCreatedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const generated = generatePages(root, root.computed!, spec);
  const place = { organizationId: space.organization_id, spaceId: space.id, changeRequestId: null };
  const pages = generated.children.map((page) => presentGeneratedPage(page, root, page.slug, context.urls, place));
  const documents = new Map<string, JSONDocument>();
  for (const page of generated.children)
    documents.set(page.id, await toDocument(context, page.markdown, `the computed page ${page.title}`));
  for (const page of pages) swapMarkdownForDocument(page, (presented) => documents.get(presented.id as string)!);
  return JSON.stringify({ pages, files: [], reusableContents: [] });
}
