import { describe, expect, it } from 'vitest';
import { blockQuoting, nodeText } from '../src/document/index.js';
import type { JSONDocument } from '../src/document/types.js';

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (key: string, value: string) => ({ object: 'block', type: 'paragraph', key, nodes: [text(value)] });
const documentOf = (...nodes: object[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

describe('the text a reader sees in a node', () => {
  it('reads nested blocks in reading order, a space between blocks', () => {
    const table = {
      object: 'block',
      type: 'list-unordered',
      key: 'list',
      nodes: [
        { object: 'block', type: 'list-item', key: 'a', nodes: [paragraph('a1', 'first'), paragraph('a2', 'second')] },
        { object: 'block', type: 'list-item', key: 'b', nodes: [paragraph('b1', 'third')] },
      ],
    };
    expect(nodeText(table, 100)).toBe('first second third');
  });

  it('keeps the order of a block of many children, and cuts at the limit with an ellipsis', () => {
    const words = Array.from({ length: 50_000 }, (_, index) => `w${index}`);
    const wide = {
      object: 'block',
      type: 'list-unordered',
      key: 'wide',
      nodes: words.map((w, i) => paragraph(`p${i}`, w)),
    };
    const whole = nodeText(wide, 1_000_000);
    expect(whole.split(' ')).toEqual(words);
    expect(nodeText(wide, 12)).toBe('w0 w1 w2 w3…');
  });

  it('finds the top-level block that holds a selection, spaced as the reader shows it, by its first line across blocks', () => {
    const document = documentOf(paragraph('intro', 'Hello there.'), paragraph('body', 'The quick   brown fox.'));
    expect(blockQuoting(document, 'quick brown')).toBe('body');
    expect(blockQuoting(document, 'there.\nThe quick')).toBe('intro');
    expect(blockQuoting(document, '\n  brown fox.\n')).toBe('body');
    expect(blockQuoting(document, 'not on the page')).toBeUndefined();
  });

  it('names the innermost block that holds a selection, through fragments, and the list when it spans two items', () => {
    const item = (key: string, inner: object) => ({ object: 'block', type: 'list-item', key, nodes: [inner] });
    const list = {
      object: 'block',
      type: 'list-unordered',
      key: 'list',
      nodes: [item('a', paragraph('a1', 'Restore a backup.')), item('b', paragraph('b1', 'Check it.'))],
    };
    const tabs = {
      object: 'block',
      type: 'tabs',
      key: 'tabs',
      nodes: [
        {
          object: 'block',
          type: 'tabs-item',
          key: 'tab',
          data: { title: 'One' },
          fragments: [{ object: 'fragment', fragment: 'content', nodes: [paragraph('in-tab', 'Inside the tab.')] }],
        },
      ],
    };
    const document = documentOf(paragraph('intro', 'Steps:'), list, tabs);
    expect(blockQuoting(document, 'a backup')).toBe('a1');
    expect(blockQuoting(document, 'backup. Check')).toBe('list');
    expect(blockQuoting(document, 'the tab')).toBe('in-tab');
  });
});
