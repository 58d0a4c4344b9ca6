import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../context.js';

/**
 * The temporary URLs exports answer with: whoever holds one may fetch that
 * export of that revision for an hour (GitBook's "the URL will work for 1h"),
 * without a token. What the URL names (the kind, space, revision, page) is
 * signed with its expiry; a changed part or signature finds nothing.
 */

export type ExportKind = 'pdf' | 'zip';

export interface ExportTarget {
  kind: ExportKind;
  organizationId: string;
  spaceId: string;
  revisionId: string;
  /** A page (and, unless `only`, its subpages) rather than the whole content; PDF only. */
  page?: string;
  only?: boolean;
}

export const EXPORT_URL_TTL_SECONDS = 3600;

function keyOf(context: Context): Buffer {
  return createHmac('sha256', context.serviceSecret).update('export-download-urls').digest();
}

function signatureOf(context: Context, target: ExportTarget, expires: number): string {
  const signed = [
    target.kind,
    target.organizationId,
    target.spaceId,
    target.revisionId,
    target.page ?? '',
    target.only ? '1' : '0',
    expires,
  ].join('\n');
  return createHmac('sha256', keyOf(context)).update(signed).digest('base64url');
}

/** The export's file name in its URL and download. */
export const fileNameOf = (target: ExportTarget) => `${target.spaceId}-${target.revisionId}.${target.kind}`;

export function signExportUrl(context: Context, target: ExportTarget, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + EXPORT_URL_TTL_SECONDS;
  const query = new URLSearchParams({
    organization: target.organizationId,
    ...(target.page ? { page: target.page } : {}),
    ...(target.only ? { only: 'true' } : {}),
    expires: String(expires),
    signature: signatureOf(context, target, expires),
  });
  return `${context.urls.service('exports', target.spaceId, target.revisionId, fileNameOf(target))}?${query}`;
}

/** Whether a URL's signature is right for what it names, and not expired. */
export function exportUrlIsValid(
  context: Context,
  target: ExportTarget,
  expires: number,
  signature: string,
  now: Date,
): boolean {
  if (!Number.isSafeInteger(expires) || expires * 1000 <= now.getTime()) return false;
  if (expires * 1000 > now.getTime() + EXPORT_URL_TTL_SECONDS * 1000) return false;
  const expected = Buffer.from(signatureOf(context, target, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
