import { fitTab, orEmptyParagraph } from './fit.js';
import type { FlowNode, TabsGroup } from './group-tags.js';
import { tagLine } from './tag-attributes.js';
import type { DocumentBlockTabs, DocumentBlockTabsItem, DocumentTopLevelBlock } from './types.js';

/**
 * Tabs in markdown, as GitBook writes them: `{% tabs %}`, then for each tab
 * `{% tab title="…" %}`, its content and `{% endtab %}`, then `{% endtabs %}`.
 */

export const OPEN_TABS_TAG = '{% tabs %}';
export const CLOSE_TABS_TAG = '{% endtabs %}';
export const CLOSE_TAB_TAG = '{% endtab %}';

/** `{% tab title="…" %}`, with `icon="…"` when the tab names one. */
export function openTabTag(title: string, icon?: string): string {
  return tagLine('tab', [
    ['title', title],
    ['icon', icon],
  ]);
}

/**
 * The tabs of a tabs group, each with its content. Anything between the tabs
 * rather than in one (a stray line) is kept, in the tab before it, or in the
 * first tab when it comes before any.
 */
function tabsOf(group: TabsGroup): Array<{ title: string; icon?: string; children: FlowNode[] }> {
  const tabs: Array<{ title: string; icon?: string; children: FlowNode[] }> = [];
  const leading: FlowNode[] = [];
  for (const child of group.children) {
    if (child.type === 'tab') tabs.push({ title: child.title, icon: child.icon, children: child.children });
    else if (tabs.length === 0) leading.push(child);
    else tabs.at(-1)!.children.push(child);
  }
  if (tabs.length > 0 && leading.length > 0) tabs[0]!.children = [...leading, ...tabs[0]!.children];
  return tabs;
}

/**
 * The tabs block of a group, or null when it holds no tab (its tags are then
 * text). `content` turns a tab's markdown into blocks, one level deeper.
 */
export function tabsBlock(
  group: TabsGroup,
  content: (children: FlowNode[]) => DocumentTopLevelBlock[],
): DocumentBlockTabs | null {
  const tabs = tabsOf(group);
  if (tabs.length === 0) return null;
  const nodes = tabs.map(({ title, icon, children }): DocumentBlockTabsItem => ({
    object: 'block',
    type: 'tabs-item',
    data: icon === undefined ? { title } : { title, icon },
    nodes: orEmptyParagraph(fitTab(content(children))),
  }));
  return { object: 'block', type: 'tabs', data: {}, nodes };
}
