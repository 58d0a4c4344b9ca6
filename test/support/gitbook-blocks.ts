/**
 * Builders of GitBook's document nodes in the shapes of @gitbook/api@0.202.0's
 * `DocumentBlock*` and `DocumentInline*` schemas, for tests that hand-build
 * the blocks GitBook writes.
 */
export type Json = Record<string, unknown>;

export const leaf = (text: string, ...marks: string[]) => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
export const text = (value: string, ...marks: string[]) => ({ object: 'text', leaves: [leaf(value, ...marks)] });
export const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
export const para = (value: string) => paragraph(text(value));
export const heading = (level: 1 | 2 | 3, value: string, data: Json = {}) => ({
  object: 'block',
  type: `heading-${level}`,
  data,
  nodes: [text(value)],
});
export const link = (ref: Json, label: string) => ({
  object: 'inline',
  type: 'link',
  data: { ref },
  nodes: [text(label)],
});
export const codeLine = (value: string) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(value)] });
export const code = (data: Json, ...lines: string[]) => ({
  object: 'block',
  type: 'code',
  data,
  nodes: lines.map(codeLine),
});
export const fileRef = (file: string) => ({ kind: 'file', file });
export const urlRef = (url: string) => ({ kind: 'url', url });
export const pageRef = (page: string) => ({ kind: 'page', page });
export const image = (data: Json, caption?: Json) => ({
  object: 'block',
  type: 'image',
  data,
  fragments: caption ? [{ object: 'fragment', fragment: 'caption', nodes: [caption] }] : [],
  isVoid: true,
});
export const images = (data: Json, ...nodes: Json[]) => ({
  object: 'block',
  type: 'images',
  data,
  nodes,
  isVoid: false,
});
export const block = (type: string, data: Json, nodes: Json[]) => ({ object: 'block', type, data, nodes });
export const voidBlock = (type: string, data: Json) => ({ object: 'block', type, data, isVoid: true });
export const inline = (type: string, data: Json) => ({ object: 'inline', type, data, isVoid: true });
export const fragment = (id: string, ...nodes: Json[]) => ({ object: 'fragment', fragment: id, nodes });
export const doc = (...nodes: Json[]) => ({ object: 'document', data: {}, nodes });

/** A table block: its view, its columns' definitions, its records (ordered as given) and its cells' fragments. */
export function table(view: Json, definition: Json, records: Json[], fragments: Json[] = [], extra: Json = {}) {
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view,
      definition,
      records: Object.fromEntries(
        records.map((values, index) => [`r${index}`, { orderIndex: `a${String(index).padStart(5, '0')}`, values }]),
      ),
      ...extra,
    },
    fragments,
  };
}
