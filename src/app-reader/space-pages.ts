import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { ApiError } from '../core/errors.js';
import type { Caller } from '../access/auth.js';
import { findSpaceAsMember, findVisibleSpace, mayEditSpace, mayReviewSpace } from '../access/spaces.js';
import { scopesAllow } from '../access/scopes.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { pageAppUrl, type ContentPlace } from '../content/page-present.js';
import { pageMovedFrom } from '../content/path-history/lookup.js';
import type { ContentTree, PageState } from '../content/tree.js';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import { changeMark, pageTree, type PageMark } from '../reader/navigation.js';
import {
  isReadable,
  pagesInOrder,
  renderedPage,
  type LinkAddresses,
  type SpaceContent,
} from '../reader/page-content.js';
import { trustedHtml } from '../reader/layout.js';
import { computedView, generatedChildren, shownPage, shownPageAt } from '../reader/computed-pages.js';
import { changeRequestPageChanges } from '../change-requests/semantic-changes/actions.js';
import { spaceRevisionIdAt } from '../change-requests/semantic-changes/queries.js';
import { appPage, notFound, type AppAnswer } from './shell.js';
import { composedAppPages } from './composed-pages.js';
import { pageChangesSection } from './page-changes.js';
import { editorScriptAddress } from './editor-script.js';
import { pageCommentsSection } from './page-comments.js';
import { changeRequestAddress } from './change-request-addresses.js';
import { listRequestedReviewers } from '../reviewers/actions.js';

/** Which content of a space the address names: its current revision, or a change request's. */
export interface SpaceAddress {
  organizationId: string;
  spaceId: string;
  /** The change request's id or number, as its app address carries it. */
  changeRequest?: string | undefined;
  /** The page path, slugs joined by `/`; empty for the first page. */
  pagePath: string;
}

/** The content being read, with what the change request does to it when it is one's. */
interface Reading {
  space: SpaceWithAccess;
  place: ContentPlace;
  content: SpaceContent;
  changes?: {
    changeRequest: { id: string; revision_id: string };
    number: number;
    authorId: string | null;
    subject: string;
    status: string;
    marks: Map<string, PageMark>;
    removed: PageState[];
  };
}

/**
 * A space read in the app, as its API reads it: the current revision to
 * whoever may see the space (members by role; others where the space's
 * visibility opens it), a change request's to members only. Anything else is
 * the same 404 as an unknown space.
 */
export async function spacePage(
  context: Context,
  caller: Caller,
  address: SpaceAddress,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  let reading: Reading;
  try {
    reading = await read(context, caller, address);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return notFound(context, caller, theme, back);
    throw error;
  }
  const { space, place, content } = reading;
  const { tree } = content;
  if (space.organization_id !== address.organizationId) return notFound(context, caller, theme, back);
  const view = await computedView(context, content);
  const first = address.pagePath === '' ? pagesInOrder(tree).find(isReadable) : undefined;
  const shown = first ? shownPage(first, view, tree) : shownPageAt(tree, view, address.pagePath);
  const page = shown && (shown.kind === 'page' ? shown.page : shown.origin);
  const addressOf = (target: PageState) => pageAppUrl(context.urls, place, tree.pathOf(target.pageId));
  const writes = mayEditSpace(space) && scopesAllow(caller.scopes, 'space:write');
  // A space's own page follows from these alone (a page composed from them before is sent again as it was); a change
  // request's shows comments and reviews, which move without a revision. Only a page that was found is kept.
  const keptAs = reading.changes
    ? undefined
    : [
        view?.key ?? '',
        space.id,
        space.title,
        content.point.id,
        context.fileUrls.expiryOf(context.clock.now()),
        address.pagePath,
        theme ?? '',
        caller.displayName,
        writes,
        back,
      ].join('|');
  const kept = keptAs === undefined ? undefined : composedAppPages(context).get(keptAs);
  if (kept) return kept;
  const changes = reading.changes;
  const sidebar = pageTree(
    tree,
    page?.pageId,
    addressOf,
    (target) => reading.changes?.marks.get(target.pageId),
    (target) =>
      generatedChildren(view, tree, target).map(({ generated, path }) => ({
        title: generated.title,
        href: pageAppUrl(context.urls, place, path),
        current: shown?.kind === 'generated' && shown.generated === generated,
      })),
    // In a change request the writer may edit, its pages are moved by dragging them (the editor's script).
    writes && changes && (changes.status === 'draft' || changes.status === 'open')
      ? (target) =>
          target.type === 'document'
            ? changeRequestAddress(
                context,
                { organizationId: space.organization_id, spaceId: space.id, changeRequest: changes.number },
                'move',
                target.pageId,
              )
            : undefined
      : undefined,
  );
  const home = { href: context.urls.app('o', space.organization_id), title: space.title };
  const banner = reading.changes
    ? [
        changeBanner(reading.changes),
        ...(await askedToReview(context, caller, space, reading.changes)),
        ...reviewActions(context, caller, space, reading.changes),
      ]
    : [];
  if (!shown || !page || (shown.kind === 'page' && !isReadable(page))) {
    const inside = page && tree.subtreeOf(page.pageId).find((candidate) => candidate !== page && isReadable(candidate));
    if (inside) return { kind: 'redirect', location: addressOf(inside) };
    // The space's own address of a page a write moved leads to where it is now; a change request's has no history.
    const moved =
      !page && !reading.changes ? await pageMovedFrom(context.db, place, tree, address.pagePath) : undefined;
    if (moved) return { kind: 'redirect', location: addressOf(moved) };
    const empty = !page && address.pagePath === '';
    return appPage(context, caller, theme, empty ? 200 : 404, {
      title: empty ? space.title : 'Page not found',
      home,
      sidebar,
      main: [
        ...banner,
        h('h1', empty ? space.title : 'Page not found'),
        h('p', empty ? 'This space has no pages yet.' : 'There is no page at this address.'),
      ],
      back,
    });
  }
  const links: LinkAddresses = {
    pageInSpace: addressOf,
    pageElsewhere: (spaceId, pageId) => context.urls.app('o', space.organization_id, 's', spaceId, '~', 'page', pageId),
  };
  const placeKey = `app|${place.organizationId}|${place.changeRequestId ?? ''}`;
  const rendered = await renderedPage(context, content, shown, links, placeKey, view);
  const mark = reading.changes?.marks.get(page.pageId);
  const title = shown.kind === 'page' ? page.title : shown.generated.title;
  // In a change request, the page's content as it changes: its blocks added, removed and edited.
  const diff =
    reading.changes && shown.kind === 'page'
      ? await changeRequestPageChanges(context, space, reading.changes.changeRequest, page.pageId)
      : undefined;
  const editing =
    shown.kind === 'page' &&
    page.type === 'document' &&
    mayEditSpace(space) &&
    scopesAllow(caller.scopes, 'space:write')
      ? editAction(context, space, reading.changes, page.pageId)
      : [];
  const answer = appPage(context, caller, theme, 200, {
    title,
    home,
    sidebar,
    main: [
      ...banner,
      ...editing,
      h('article', [
        h('h1', [title, ...(mark ? [changeMark(mark)] : [])]),
        ...(page.description && shown.kind === 'page' ? [h('p.page-description', page.description)] : []),
        trustedHtml(rendered.html),
      ]),
      ...(diff ? [pageChangesSection(diff)] : []),
      ...(reading.changes && shown.kind === 'page'
        ? [
            await pageCommentsSection(
              context,
              caller,
              space,
              { id: reading.changes.changeRequest.id, number: reading.changes.number },
              {
                pageId: page.pageId,
                url: addressOf(page),
              },
            ),
          ]
        : []),
    ],
    toc: rendered.headings,
    back,
    // A change request's page takes comments on a selection (the editor's script names the block).
    ...(reading.changes && shown.kind === 'page' ? { scripts: [editorScriptAddress(context)] } : {}),
  });
  if (keptAs !== undefined) composedAppPages(context).set(keptAs, answer);
  return answer;
}

async function read(context: Context, caller: Caller, address: SpaceAddress): Promise<Reading> {
  if (address.changeRequest === undefined) {
    const { space } = await findVisibleSpace(context, address.spaceId, caller.userId);
    const point = await context.content.revision(space.id, space.organization_id, space.revision_id);
    if (!point) throw new ApiError(404, 'No revision');
    const place = { organizationId: space.organization_id, spaceId: space.id, changeRequestId: null };
    return { space, place, content: { point, tree: await context.content.tree(point) } };
  }
  const { space } = await findSpaceAsMember(context, address.spaceId, caller.userId);
  const changeRequest = await changeRequestIn(context, space.id, address.changeRequest);
  const point = await context.content.revision(space.id, space.organization_id, changeRequest.revision_id);
  if (!point) throw new ApiError(404, 'No revision');
  // Its base, as its changes have it: the space revision it builds on, where it was opened or last updated from.
  const baseId = await spaceRevisionIdAt(context.db, space.organization_id, space.id, point.baseSeq);
  const base = baseId && (await context.content.revision(space.id, space.organization_id, baseId));
  if (!base) throw new ApiError(404, 'No revision');
  const [tree, baseTree] = await Promise.all([context.content.tree(point), context.content.tree(base)]);
  const place = { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id };
  return {
    space,
    place,
    content: { point, tree },
    changes: {
      changeRequest: { id: changeRequest.id, revision_id: changeRequest.revision_id },
      number: changeRequest.number,
      authorId: changeRequest.author_id,
      subject: changeRequest.subject,
      status: changeRequest.status,
      ...changesBetween(baseTree, tree),
    },
  };
}

/**
 * How a writer edits the page: in the space's current content, a button that
 * opens (or continues) their change request; in a change request still being
 * worked on, a link to the page's editor there.
 */
function editAction(
  context: Context,
  space: SpaceWithAccess,
  changes: Reading['changes'],
  pageId: string,
): ElementContent[] {
  if (!changes) {
    return [
      h(
        'form.page-actions',
        { action: context.urls.app('o', space.organization_id, 's', space.id, '~', 'edit', pageId), method: 'post' },
        [h('button', { type: 'submit' }, 'Edit')],
      ),
    ];
  }
  if (changes.status !== 'draft' && changes.status !== 'open') return [];
  return [
    h(
      'p.page-actions',
      h(
        'a.button',
        {
          href: changeRequestAddress(
            context,
            { organizationId: space.organization_id, spaceId: space.id, changeRequest: changes.number },
            'edit',
            pageId,
          ),
        },
        'Edit this page',
      ),
    ),
  ];
}

/** How many of the people and teams asked to review a change request its page names. */
const NAMED_REVIEWERS = 20;

/** Who was asked to review the change request, as the API lists them. */
async function askedToReview(
  context: Context,
  caller: Caller,
  space: SpaceWithAccess,
  changes: NonNullable<Reading['changes']>,
): Promise<ElementContent[]> {
  const asked = await listRequestedReviewers(context, caller.userId, space.id, changes.changeRequest.id, {
    limit: NAMED_REVIEWERS,
  });
  if (asked.items.length === 0) return [];
  const names = asked.items.map((reviewer) =>
    reviewer.kind === 'team' ? `${reviewer.team.title} (team)` : reviewer.user.displayName,
  );
  return [h('p.reviewers', `Asked to review: ${names.join(', ')}${asked.next ? ', and more' : ''}.`)];
}

/**
 * What the caller may do with the change request, as forms: ask for review
 * (a writer, on a draft), approve or request changes (a reviewer who is not
 * its author, for approving), and merge (a writer whose token may merge).
 * The space's merge rules are checked when the merge is asked for.
 */
function reviewActions(
  context: Context,
  caller: Caller,
  space: SpaceWithAccess,
  changes: NonNullable<Reading['changes']>,
): ElementContent[] {
  if (changes.status !== 'draft' && changes.status !== 'open') return [];
  const action = (name: string) =>
    changeRequestAddress(
      context,
      { organizationId: space.organization_id, spaceId: space.id, changeRequest: changes.number },
      name,
    );
  const writes = mayEditSpace(space) && scopesAllow(caller.scopes, 'space:write');
  const forms: ElementContent[] = [];
  if (writes && changes.status === 'draft') {
    forms.push(
      h('form', { action: action('status'), method: 'post' }, [
        h('input', { type: 'hidden', name: 'status', value: 'open' }),
        h('button', { type: 'submit' }, 'Ask for review'),
      ]),
    );
  }
  if (mayReviewSpace(space) && scopesAllow(caller.scopes, 'space:write')) {
    const own = changes.authorId === caller.userId;
    forms.push(
      h('form.review', { action: action('review'), method: 'post' }, [
        h('label', { htmlFor: 'quire-review-comment' }, 'Review comment (optional)'),
        h('textarea', { id: 'quire-review-comment', name: 'comment', rows: 3, maxLength: 10_000 }),
        ...(own ? [] : [h('button', { type: 'submit', name: 'status', value: 'approved' }, 'Approve'), ' ']),
        h('button', { type: 'submit', name: 'status', value: 'changes-requested' }, 'Request changes'),
      ]),
    );
  }
  if (writes) {
    forms.push(
      h('form.review', { action: action('reviewers'), method: 'post' }, [
        h('label', { htmlFor: 'quire-reviewer' }, 'Ask a member to review: their e-mail address'),
        h('input', { id: 'quire-reviewer', name: 'email', type: 'email', required: true, maxLength: 254 }),
        h('button', { type: 'submit' }, 'Ask'),
      ]),
    );
  }
  if (writes && scopesAllow(caller.scopes, 'change-request:merge')) {
    forms.push(h('form', { action: action('merge'), method: 'post' }, [h('button', { type: 'submit' }, 'Merge')]));
  }
  return forms.length > 0 ? [h('div.review-actions', forms)] : [];
}

/** What a change request does to the pages it started from: pages it adds, changes and removes. */
function changesBetween(base: ContentTree, changed: ContentTree) {
  const marks = new Map<string, PageMark>();
  for (const page of changed.pages.values()) {
    const before = base.pages.get(page.pageId);
    if (!before) marks.set(page.pageId, 'added');
    else if (before.versionId !== page.versionId) marks.set(page.pageId, 'changed');
  }
  const removed = [...base.pages.values()].filter((page) => !changed.pages.has(page.pageId));
  return { marks, removed };
}

function changeBanner(changes: NonNullable<Reading['changes']>): ElementContent {
  const counts = [...changes.marks.values()];
  const added = counts.filter((mark) => mark === 'added').length;
  const changed = counts.length - added;
  return h('div.change-banner', { role: 'note' }, [
    h('strong', `Change request #${changes.number}: ${changes.subject || 'Untitled'}`),
    ` (${changes.status}). It adds ${added} page${added === 1 ? '' : 's'}, changes ${changed}`,
    changes.removed.length > 0
      ? ` and removes ${changes.removed.length}: ${changes.removed.map((page) => page.title).join(', ')}.`
      : '.',
  ]);
}

/** Where a page of a space is read in the app, for links from another space's pages. */
export async function pageAddressInApp(
  context: Context,
  caller: Caller,
  organizationId: string,
  spaceId: string,
  pageId: string,
): Promise<string | undefined> {
  try {
    const { space, place, content } = await read(context, caller, { organizationId, spaceId, pagePath: '' });
    if (space.organization_id !== organizationId || !content.tree.pages.has(pageId)) return undefined;
    return pageAppUrl(context.urls, place, content.tree.pathOf(pageId));
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return undefined;
    throw error;
  }
}
