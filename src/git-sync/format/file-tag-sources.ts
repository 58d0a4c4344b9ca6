/**
 * Where a page names a file outside markdown destinations and HTML `src`
 * and `href` (which the markdown parse finds): GitBook's `{% file src="…" %}`
 * tags and the `srcset` of a `<source>` (an image's dark variant). The
 * service stores both as `/files/<id>`; they are found line by line outside
 * fenced code, each line scanned once.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const OPENERS = ['{% file src="', '{%file src="', ' srcset="'];

type Rewrite = (url: string) => string | undefined;

/** Where each quoted value after an opener is, in line order. */
function valuesOf(line: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  for (const opener of OPENERS) {
    for (let at = line.indexOf(opener); at !== -1; at = line.indexOf(opener, at + 1)) {
      const start = at + opener.length;
      const end = line.indexOf('"', start);
      if (end !== -1) found.push({ start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function rewriteLine(line: string, rewrite: Rewrite): string {
  let out = '';
  let copied = 0;
  for (const { start, end } of valuesOf(line)) {
    const replacement = rewrite(line.slice(start, end));
    if (replacement === undefined || /["\n]/.test(replacement)) continue;
    out += line.slice(copied, start) + replacement;
    copied = end;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** The markdown with the file tags' and `srcset`s' URLs replaced where `rewrite` returns one. */
export function rewriteFileTagSources(markdown: string, rewrite: Rewrite): string {
  if (!markdown.includes('{%') && !markdown.includes('srcset="')) return markdown;
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
          fence = undefined;
        return line;
      }
      if (marker) {
        fence = marker;
        return line;
      }
      return rewriteLine(line, rewrite);
    })
    .join('\n');
}
