/**
 * The blocks the editor's menu inserts, as GitBook writes them in markdown:
 * each is read back by the service's own parser as the block it names
 * (test/app-editing.test.ts converts every one), so what the writer inserts
 * is what the reader shows.
 */
export interface BlockSnippet {
  /** The menu's button: what a writer looks for. */
  label: string;
  /** The block kind in the page's document, for the test that reads each back. */
  block: string;
  markdown: string;
}

export const BLOCK_SNIPPETS: readonly BlockSnippet[] = [
  {
    label: 'Hint',
    block: 'hint',
    markdown: '{% hint style="info" %}\nWrite the hint here.\n{% endhint %}',
  },
  {
    label: 'Table',
    block: 'table',
    markdown: '| Column | Column |\n| ------ | ------ |\n| Cell   | Cell   |\n| Cell   | Cell   |',
  },
  {
    label: 'Code',
    block: 'code',
    markdown: '{% code title="example.js" %}\n```javascript\nconsole.log("Hello");\n```\n{% endcode %}',
  },
  {
    label: 'Tabs',
    block: 'tabs',
    markdown:
      '{% tabs %}\n{% tab title="First" %}\nThe first tab.\n{% endtab %}\n\n{% tab title="Second" %}\nThe second tab.\n{% endtab %}\n{% endtabs %}',
  },
  {
    label: 'Expandable',
    block: 'expandable',
    markdown: '<details>\n\n<summary>What it is about</summary>\n\nWhat shows when it opens.\n\n</details>',
  },
  {
    label: 'Cards',
    block: 'table',
    markdown:
      '<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><strong>First card</strong></td><td>What it is about.</td></tr><tr><td><strong>Second card</strong></td><td>What it is about.</td></tr></tbody></table>',
  },
  {
    label: 'Math',
    block: 'math',
    markdown: '$$\nE = mc^2\n$$',
  },
];
