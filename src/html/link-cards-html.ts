import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { formatSize, ownEntry, safeUrl, stringField } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';

/**
 * An embed as a card that links to what it embeds. The reader's pages run
 * no script and frame nothing (their Content-Security-Policy has no
 * frame-src), so a video or a pen opens on its own site.
 */
export function embedBlock(node: AnyNode): ElementContent[] {
  const url = safeUrl(stringField(node.data, 'url'));
  if (!url || !/^https?:\/\//i.test(url)) return [];
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    // An address URL does not read keeps its full text as the card's title.
  }
  return [
    h('div.embed', [h('a.link-card', { href: url }, [h('span.link-card-title', host), h('span.link-card-url', url)])]),
  ];
}

/** A content-ref: a card that links to a page (named by its title when the reader knows it), a file or a URL. */
export function contentRefBlock(context: RenderContext, node: AnyNode): ElementContent[] {
  const ref = (node.data?.ref ?? {}) as {
    kind?: string;
    page?: string;
    space?: string;
    url?: string;
    file?: string;
    anchor?: string;
  };
  const href = context.linkTarget(ref);
  if (!href) return [h('p.content-ref.missing', 'A page that is not in this site')];
  const pageTitle = ownEntry(context.input.pageTitles, `${ref.space ?? ''}/${ref.page ?? ''}`);
  const title =
    ref.kind === 'file' && ref.file
      ? (ownEntry(context.input.files, ref.file)?.name ?? href)
      : ref.kind === 'url'
        ? (ref.url ?? href)
        : ref.kind === 'anchor'
          ? `${pageTitle ?? ''}#${ref.anchor ?? ''}`
          : (pageTitle ?? href);
  const inner = [h('span.link-card-title', title)];
  return [h('div.content-ref', context.insideLink ? inner : [h('a.link-card', { href }, inner)])];
}

export function fileBlock(context: RenderContext, node: AnyNode): Element {
  const ref = node.data?.ref as { kind?: string; file?: string } | undefined;
  const file = ref?.kind === 'file' && ref.file ? ownEntry(context.input.files, ref.file) : undefined;
  if (!file) return h('p.file.missing', 'A file that is no longer in this space');
  const name = context.insideLink ? h('span', file.name) : h('a', { href: file.url, download: file.name }, file.name);
  return h('p.file', [name, h('span.file-size', ` (${formatSize(file.size)})`)]);
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * An OpenAPI block (an operation, a webhook, schemas, or the older
 * `swagger` block): a card naming what it shows, linking to the spec's
 * reference pages when the space has them.
 */
export function openapiBlock(context: RenderContext, node: AnyNode): Element {
  const data = node.data ?? {};
  const ref = data.ref as { kind?: string; spec?: unknown; url?: unknown } | undefined;
  const spec = ref?.kind === 'openapi' && typeof ref.spec === 'string' ? ref.spec : undefined;
  const href = spec ? ownEntry(context.input.openapiPages, spec) : context.linkTarget(ref);
  const method = stringField(data, 'method')?.toLowerCase();
  const knownMethod = method && HTTP_METHODS.has(method) ? method : undefined;
  const title: Array<ElementContent | string> =
    node.type === 'openapi-schemas'
      ? [stringField(data, 'title') ?? schemasTitle(data.schemas)]
      : [
          ...(knownMethod ? [h(`span.http-method.method-${knownMethod}`, knownMethod.toUpperCase()), ' '] : []),
          h('code', stringField(data, 'path') ?? stringField(data, 'name') ?? ''),
        ];
  const source = spec ? `From the ${spec} API reference` : 'From an OpenAPI specification';
  const inner = [h('span.link-card-title', title), h('span.link-card-url', source)];
  return h(
    'div.openapi',
    href && !context.insideLink ? [h('a.link-card', { href }, inner)] : [h('div.link-card', inner)],
  );
}

function schemasTitle(schemas: unknown): string {
  const names = Array.isArray(schemas) ? schemas.filter((name): name is string => typeof name === 'string') : [];
  return names.length === 1 ? `The ${names[0]} object` : names.length > 0 ? names.join(', ') : 'Schemas';
}
