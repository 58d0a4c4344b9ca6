import PDFDocument from 'pdfkit';

/**
 * A space's or change request's pages as one PDF, drawn from GitBook's JSON
 * document model with pdfkit: a title page, then each page under its title
 * (groups as section titles), with headings, paragraphs with bold, italic,
 * code and links, lists (ordered, bulleted, tasks), code blocks, quotes and
 * hints, tables, dividers, and the images the space holds as PNG or JPEG;
 * any other block gives its text. The standard PDF fonts are used, which
 * hold Latin-1 and a few more characters: another letter prints without its
 * accents, and any other character as `?`.
 */

/** A page of the export, in the tree's order; `depth` 0 at the top. */
export interface PdfPage {
  title: string;
  depth: number;
  /** A group is a section title without content. */
  kind: 'page' | 'group';
  document: unknown;
}

export interface PdfInput {
  title: string;
  pages: PdfPage[];
  /** The bytes of the PNG and JPEG files the pages show, by file id. */
  images: Record<string, Uint8Array>;
}

interface Node {
  object?: string;
  type?: string;
  text?: string;
  leaves?: Array<{ text: string; marks?: Array<{ type: string }> }>;
  nodes?: Node[];
  fragments?: Array<{ fragment: string; nodes?: Node[] }>;
  data?: Record<string, unknown>;
}

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const shown = (char: string) => char.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRA.has(char);
/** Text the standard fonts can show: a letter they lack loses its accents (ő is o), anything else becomes `?`. */
const printable = (text: string) =>
  [...text]
    .map((char) => {
      if (shown(char)) return char;
      const bare = char.normalize('NFKD').replace(/\p{M}/gu, '');
      return bare !== '' && [...bare].every(shown) ? bare : '?';
    })
    .join('');

const FONTS = {
  body: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  boldItalic: 'Helvetica-BoldOblique',
  code: 'Courier',
};
const HEADING_SIZES: Record<string, number> = { 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 };
const BODY_SIZE = 10.5;
const CODE_SIZE = 9;

interface Run {
  text: string;
  font: string;
  link?: string;
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** The inline content of a block as runs of one font each. */
function runsOf(nodes: readonly Node[] | undefined, link?: string): Run[] {
  const runs: Run[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text') {
      for (const leaf of node.leaves ?? []) {
        const marks = new Set((leaf.marks ?? []).map((mark) => mark.type));
        const font = marks.has('code')
          ? FONTS.code
          : marks.has('bold') && marks.has('italic')
            ? FONTS.boldItalic
            : marks.has('bold')
              ? FONTS.bold
              : marks.has('italic')
                ? FONTS.italic
                : FONTS.body;
        if (leaf.text) runs.push({ text: leaf.text, font, ...(link ? { link } : {}) });
      }
    } else if (node.type === 'link') {
      const ref = node.data?.ref as { kind?: string; url?: string } | undefined;
      runs.push(...runsOf(node.nodes, ref?.kind === 'url' ? ref.url : link));
    } else if (node.type === 'inline-math') {
      runs.push({ text: stringOf(node.data?.formula), font: FONTS.code });
    } else if (node.type === 'button') {
      runs.push({ text: stringOf(node.data?.label), font: FONTS.bold });
    } else if (node.type === 'inline-image') {
      const alt = node.data?.alt;
      if (typeof alt === 'string' && alt) runs.push({ text: `[${alt}]`, font: FONTS.italic });
    } else if (node.nodes) {
      runs.push(...runsOf(node.nodes, link));
    }
  }
  return runs;
}

/** All the text under a node, for blocks drawn as plain text. */
function plainText(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text).join('');
  const parts = (node.nodes ?? []).map(plainText);
  for (const fragment of node.fragments ?? []) parts.push(...(fragment.nodes ?? []).map(plainText));
  return parts.filter(Boolean).join(node.object === 'block' ? '\n' : '');
}

type Doc = PDFKit.PDFDocument;

class Writer {
  constructor(
    private readonly doc: Doc,
    private readonly images: Record<string, Uint8Array>,
  ) {}

  private get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private runs(runs: Run[], options: { indent: number; size: number; align?: 'left' | 'center' | 'right' }) {
    const doc = this.doc;
    if (runs.length === 0) return;
    const x = doc.page.margins.left + options.indent;
    const width = this.width - options.indent;
    runs.forEach((run, at) => {
      doc.font(run.font).fontSize(run.font === FONTS.code ? options.size - 1 : options.size);
      const last = at === runs.length - 1;
      const text = printable(run.text);
      const placement = {
        width,
        continued: !last,
        ...(run.link ? { link: run.link, underline: true } : { link: null, underline: false }),
        ...(options.align ? { align: options.align } : {}),
      };
      if (at === 0) doc.text(text, x, doc.y, placement);
      else doc.text(text, placement);
    });
  }

  private gap(size = 4) {
    this.doc.moveDown(size / 12);
  }

  block(node: Node, indent: number): void {
    const doc = this.doc;
    switch (node.type) {
      case 'paragraph':
        this.runs(runsOf(node.nodes), { indent, size: BODY_SIZE });
        this.gap();
        return;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        this.gap(6);
        this.runs(
          runsOf(node.nodes).map((run) => ({ ...run, font: run.font === FONTS.code ? FONTS.code : FONTS.bold })),
          { indent, size: HEADING_SIZES[node.type]! },
        );
        this.gap();
        return;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const start = typeof node.data?.start === 'number' ? node.data.start : 1;
        (node.nodes ?? []).forEach((item, at) => {
          const marker =
            node.type === 'list-ordered'
              ? `${start + at}.`
              : node.type === 'list-tasks'
                ? item.data?.checked
                  ? '[x]'
                  : '[ ]'
                : '•';
          doc
            .font(FONTS.body)
            .fontSize(BODY_SIZE)
            .text(marker, doc.page.margins.left + indent, doc.y, { width: 22, lineBreak: false });
          doc.moveUp();
          for (const child of item.nodes ?? []) this.block(child, indent + 22);
        });
        this.gap();
        return;
      }
      case 'code': {
        const lines = (node.nodes ?? []).map((line) => plainText(line));
        const text = printable(lines.join('\n'));
        doc.font(FONTS.code).fontSize(CODE_SIZE);
        const x = doc.page.margins.left + indent;
        const height = doc.heightOfString(text, { width: this.width - indent - 12 });
        if (doc.y + height + 12 < doc.page.height - doc.page.margins.bottom)
          doc
            .save()
            .rect(x, doc.y, this.width - indent, height + 12)
            .fill('#f3f4f6')
            .restore();
        doc.fillColor('#111827').text(text, x + 6, doc.y + 6, { width: this.width - indent - 12 });
        doc.fillColor('black');
        doc.y += 6;
        this.gap(6);
        return;
      }
      case 'blockquote':
      case 'hint': {
        const top = doc.y;
        for (const child of node.nodes ?? []) this.block(child, indent + 14);
        doc
          .save()
          .moveTo(doc.page.margins.left + indent + 4, top)
          .lineTo(doc.page.margins.left + indent + 4, doc.y)
          .lineWidth(2)
          .stroke(node.type === 'hint' ? '#3b82f6' : '#9ca3af')
          .restore();
        this.gap();
        return;
      }
      case 'divider':
        doc
          .save()
          .moveTo(doc.page.margins.left + indent, doc.y)
          .lineTo(doc.page.margins.left + this.width, doc.y)
          .stroke('#d1d5db')
          .restore();
        this.gap(8);
        return;
      case 'images':
        for (const child of node.nodes ?? []) this.block(child, indent);
        return;
      case 'image':
        this.image(node, indent);
        return;
      case 'table':
        this.table(node);
        return;
      default: {
        if (node.type === 'expandable' || node.type === 'tabs' || node.type === 'tabs-item') {
          const title = node.data?.title;
          if (typeof title === 'string' && title)
            this.runs([{ text: title, font: FONTS.bold }], { indent, size: BODY_SIZE });
        }
        const children = [...(node.nodes ?? []), ...(node.fragments ?? []).flatMap((fragment) => fragment.nodes ?? [])];
        if (children.some((child) => child.object === 'block')) {
          for (const child of children) if (child.object === 'block') this.block(child, indent);
          return;
        }
        const text = plainText(node);
        if (text) {
          this.runs([{ text, font: FONTS.body }], { indent, size: BODY_SIZE });
          this.gap();
        }
      }
    }
  }

  private image(node: Node, indent: number) {
    const doc = this.doc;
    const ref = node.data?.ref as { kind?: string; file?: string; url?: string } | undefined;
    const bytes = ref?.kind === 'file' && ref.file ? this.images[ref.file] : undefined;
    if (bytes) {
      try {
        // openImage reads the image once for its size and its drawing; the types leave it out.
        const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(
          Buffer.from(bytes),
        );
        const width = Math.min(this.width - indent, image.width);
        const height = (image.height * width) / image.width;
        if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
        doc.image(image as unknown as Buffer, doc.page.margins.left + indent, doc.y, { width });
        doc.y += 0;
        this.gap(6);
        return;
      } catch {
        // An image pdfkit cannot read is shown as its text.
      }
    }
    const alt = typeof node.data?.alt === 'string' && node.data.alt ? node.data.alt : (ref?.url ?? 'image');
    this.runs([{ text: `[${alt}]`, font: FONTS.italic }], { indent, size: BODY_SIZE });
    this.gap();
  }

  private table(node: Node) {
    const data = node.data as {
      view?: { columns?: string[] };
      records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
      definition?: Record<string, { title?: string; type?: string }>;
    };
    const columns = (data.view?.columns ?? Object.keys(data.definition ?? {})).slice(0, 12);
    if (columns.length === 0) return;
    const fragments = new Map((node.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
    const cell = (value: unknown): string => {
      if (typeof value === 'string') {
        const fragment = fragments.get(value);
        return fragment ? (fragment.nodes ?? []).map(plainText).join('\n') : value;
      }
      if (Array.isArray(value)) return value.map(cell).join(', ');
      if (value && typeof value === 'object') {
        const ref: { url?: string; page?: string } = 'ref' in value ? (value as { ref: object }).ref : value;
        return ref.url ?? ref.page ?? '';
      }
      return '';
    };
    const records = Object.values(data.records ?? {}).sort((a, b) =>
      a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
    );
    const rows = [
      columns.map((column) => printable(data.definition?.[column]?.title ?? '')),
      ...records.map((record) => columns.map((column) => printable(cell(record.values[column])))),
    ];
    this.doc.font(FONTS.body).fontSize(9);
    this.doc.table({ data: rows });
    this.doc.font(FONTS.body).fontSize(BODY_SIZE);
    this.gap(6);
  }
}

/** The PDF of the pages, as bytes. */
export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: printable(input.title), Producer: 'Quire' },
    bufferPages: false,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font(FONTS.bold).fontSize(26).text(printable(input.title), { align: 'left' });
  doc.moveDown(1);
  const writer = new Writer(doc, input.images);
  for (const page of input.pages) {
    doc.addPage();
    const size = page.kind === 'group' ? 22 : Math.max(16, 22 - 2 * page.depth);
    doc.font(FONTS.bold).fontSize(size).fillColor('black').text(printable(page.title), { align: 'left' });
    doc.moveDown(0.6);
    const document = page.document as Node | null;
    for (const block of document?.nodes ?? []) writer.block(block, 0);
  }
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
