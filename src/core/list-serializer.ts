import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { CompiledOnce, schemaText } from './compiled-once.js';
import type { DeferredCompilations } from './deferred-compilation.js';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type RouteDefinition = Parameters<ReturnType<SerializerFactory>>[0];
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/** The keys of a list envelope (ListEnvelope in schemas.ts); a schema with any other is serialised whole. */
const ENVELOPE_KEYS = new Set(['next', 'count', 'items']);

/**
 * From this many characters on, a page's items become bytes one by one. V8
 * keeps a string of more than 64K two-byte characters (text beyond Latin-1
 * anywhere in it: an emoji, a name in Cyrillic) among its large objects, each
 * in fresh memory of its own; a serialised page of that size then costs
 * several times more to flatten, measure and encode than its pieces do. The
 * bound is on the whole text, envelope included, and leaves a margin below
 * that edge: a page of comments of 65,632 characters, which the items alone
 * left just under 64K, cost 5 ms of Node as text and 3 ms as bytes. A
 * shorter page is joined as text, which for it is cheaper than bytes.
 */
const LARGE_PAGE = 56 * 1024;

interface ListEnvelope {
  items: unknown[];
}

/** The item schema of a list envelope's response schema, or undefined for any other. */
function itemSchemaOf(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, properties } = schema as {
    type?: unknown;
    properties?: Record<string, { type?: unknown; items?: unknown }>;
  };
  if (type !== 'object' || !properties) return undefined;
  const keys = Object.keys(properties);
  if (!keys.includes('items') || !keys.every((key) => ENVELOPE_KEYS.has(key))) return undefined;
  const items = properties.items;
  return items?.type === 'array' && items.items !== undefined ? items.items : undefined;
}

/** The base compiler of each set of external schemas and options, with what it compiled (./compiled-once.ts). */
const serializersBySchemas = new CompiledOnce<{
  compile: ReturnType<SerializerFactory>;
  compiled: CompiledOnce<Serializer>;
}>();

/**
 * Fastify's serialiser factory (fast-json-stringify), except that:
 * - a serialiser is compiled when first used or by `deferred.compileAll`,
 *   not when its route is registered (fast-json-stringify checks each
 *   schema as it compiles, the larger part of the time), and once for the
 *   process (./compiled-once.ts);
 * - a list envelope whose items add up to a large text is answered as bytes
 *   made item by item. The bytes are those the whole serialiser writes: each
 *   item goes through the serialiser of the item schema, and the envelope
 *   around them through the envelope's own.
 */
export function listSerializerFactory(deferred: DeferredCompilations): SerializerFactory {
  const base = SerializerSelector();
  return (externalSchemas, options) => {
    // JSON texts have no raw line break, so joined by one they stay apart.
    const source = [
      ...Object.values(externalSchemas as Record<string, object>).map(schemaText),
      JSON.stringify(options),
    ];
    const { compile, compiled } = serializersBySchemas.getByText(source.join('\n'), () => ({
      compile: base(externalSchemas, options),
      compiled: new CompiledOnce<Serializer>(),
    }));
    return (route: RouteDefinition) => {
      // A serialiser depends on its schema alone: fast-json-stringify reads no other field of the route.
      const serializerOf = (schema: unknown) => compiled.get(schema, () => compile({ ...route, schema }));
      const serializer = deferred.defer(() => {
        const whole = serializerOf(route.schema);
        const itemSchema = itemSchemaOf(route.schema);
        if (itemSchema === undefined) return whole;
        const item = serializerOf(itemSchema);
        // Fastify sends a Buffer as it is; its type says string.
        return ((page: ListEnvelope) => serializePage(page, whole, item)) as (doc: unknown) => string;
      });
      return (doc: unknown) => serializer()(doc);
    };
  };
}

function serializePage(page: ListEnvelope, whole: (doc: unknown) => string, item: (doc: unknown) => string) {
  if (!Array.isArray(page?.items) || page.items.length === 0) return whole(page);
  const items = page.items.map((one) => item(one));
  let length = 0;
  for (const text of items) length += text.length;
  // The envelope with no items: `"items":[]` can only be its own key, since
  // quotes inside its string values are escaped.
  const shell = whole({ ...page, items: [] });
  const key = shell.indexOf('"items":[]');
  if (key < 0) return whole(page);
  const at = key + '"items":['.length;
  const head = shell.slice(0, at);
  const tail = shell.slice(at);
  if (length + items.length + shell.length < LARGE_PAGE) return head + items.join(',') + tail;
  const parts: Buffer[] = [Buffer.from(head)];
  for (let i = 0; i < items.length; i++) parts.push(Buffer.from(i === 0 ? items[i]! : `,${items[i]}`));
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}
