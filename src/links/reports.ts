import { loaded, loadingCache } from '../core/loading-cache.js';
import type { Context } from '../context.js';
import type { RevisionPoint } from '../content/state.js';
import { analyseLinks, brokenSince, reportWeight, type LinkReport } from './analysis.js';
import { findSpaceRevisionIdAt } from './queries.js';

/** Cache bound: link targets, linking pages and backlinks across cached reports. */
const REPORT_ENTRIES = 500_000;

/** Whether a URL points into this service's app: same origin, under the app's path. */
export function appUrlTest(appBase: string): (url: string) => boolean {
  const app = new URL(appBase);
  const root = app.pathname.replace(/\/$/, '');
  return (url) => {
    if (!URL.canParse(url)) return false;
    const parsed = new URL(url);
    return parsed.origin === app.origin && (parsed.pathname === root || parsed.pathname.startsWith(`${root}/`));
  };
}

/**
 * The link report of each revision, made once. A revision never changes and
 * its report depends on nothing else (the service's URLs are fixed while it
 * runs; a change request's line is compared with the space revision it is
 * based on, which is fixed too), so a cached report stays true: a repeated
 * read costs no query.
 */
export class LinkReports {
  private readonly reports = loadingCache<LinkReport>(REPORT_ENTRIES, reportWeight);
  private readonly isAppUrl: (url: string) => boolean;

  constructor(private readonly context: Context) {
    this.isAppUrl = appUrlTest(context.urls.app());
  }

  of(point: RevisionPoint): Promise<LinkReport> {
    return loaded(this.reports, point.id, async () => {
      const report = await this.analyse(point);
      if (point.changeRequestId === null) return report;
      const base = await this.baseOf(point);
      return base ? { ...report, introduced: brokenSince(report, await this.of(base)) } : report;
    });
  }

  private async analyse(point: RevisionPoint): Promise<LinkReport> {
    const tree = await this.context.content.tree(point);
    const factsOf = await this.context.content.factsOf(point.organizationId, tree.pages.values());
    return analyseLinks(tree, factsOf, this.isAppUrl);
  }

  /** The space revision a change request's revision starts from. */
  private async baseOf(point: RevisionPoint): Promise<RevisionPoint | undefined> {
    const { db, content } = this.context;
    const baseId = await findSpaceRevisionIdAt(db, point.organizationId, point.spaceId, point.baseSeq);
    return baseId ? content.revision(point.spaceId, point.organizationId, baseId) : undefined;
  }
}
