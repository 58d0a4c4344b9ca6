import type { Element, ElementContent } from 'hast';

/**
 * Highlighted code cut into lines, for line numbers and folding: a token
 * that spans lines (a block comment) is closed at each line's end and opened
 * again on the next, so every line stands alone. One pass over the tokens;
 * each line re-opens at most the few spans it sits in.
 */
export function codeLines(tokens: ElementContent[]): ElementContent[][] {
  const lines: ElementContent[][] = [];
  const open: Element[] = [];
  // The children lists being written: the line's, then each open span's copy on this line.
  let containers: ElementContent[][] = [[]];
  const newLine = () => {
    lines.push(containers[0]!);
    containers = [[]];
    for (const element of open) {
      const copy: Element = { type: 'element', tagName: element.tagName, properties: element.properties, children: [] };
      containers.at(-1)!.push(copy);
      containers.push(copy.children);
    }
  };
  const visit = (node: ElementContent) => {
    if (node.type === 'text') {
      node.value.split('\n').forEach((part, index) => {
        if (index > 0) newLine();
        if (part !== '') containers.at(-1)!.push({ type: 'text', value: part });
      });
    } else if (node.type === 'element') {
      const copy: Element = { type: 'element', tagName: node.tagName, properties: node.properties, children: [] };
      containers.at(-1)!.push(copy);
      containers.push(copy.children);
      open.push(node);
      for (const child of node.children) visit(child);
      open.pop();
      containers.pop();
    }
  };
  for (const token of tokens) visit(token);
  lines.push(containers[0]!);
  return lines;
}
