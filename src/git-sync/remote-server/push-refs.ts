import type { Context } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { updateChangeRequest } from '../../change-requests/actions.js';
import { applyRepository } from '../apply-repository.js';
import { unchangedSince, type RepositoryContent, type UnchangedSince } from '../format/index.js';
import { runGit } from './git-process.js';
import type { PushReader } from './read-pool.js';
import { ZERO_SHA, type RefCommand } from './push-protocol.js';
import {
  deleteBranch,
  findBranch,
  findChangeRequestRevision,
  findCommitRevisions,
  notePushedRevision,
  saveBranch,
} from './queries.js';
import { isAncestor, readCommitFiles } from './tree.js';
import { MAIN } from './repository.js';

/**
 * What a pushed ref does to the space, once receive-pack has taken its
 * objects: main's new content merged into the space (only fast-forward,
 * only when it applies cleanly and the pusher may merge); any other branch
 * its change request opened or updated, never merged; a branch deleted, its
 * change request archived.
 */

/** Who pushes to which space. */
export interface PushCaller {
  organizationId: string;
  spaceId: string;
  userId: string;
  /** Whether the caller's token may merge (the change-request:merge scope). */
  mayMerge: boolean;
  reader: PushReader;
}

export interface PushedRef extends RefCommand {
  staging: string;
}

export interface RefOutcome {
  /** Null: taken; else why not, as `git push` shows it. */
  refused: string | null;
  /** Lines the client prints as `remote: ...`. */
  messages: string[];
}

const BRANCH = /^refs\/heads\/(.+)$/;
/** How far back a pushed commit's first parents are followed to find the space's revision it was made on. */
const TRACE_DEPTH = 1000;

const taken = (...messages: string[]): RefOutcome => ({ refused: null, messages });
const refused = (reason: string, ...messages: string[]): RefOutcome => ({ refused: reason, messages });

export async function applyPushedRef(context: Context, input: PushCaller, pushed: PushedRef): Promise<RefOutcome> {
  const branch = BRANCH.exec(pushed.ref)?.[1];
  if (branch === undefined) return refused('only branches (refs/heads/...) can be pushed to a space');
  try {
    if (pushed.ref === MAIN) return await pushToMain(context, input, pushed);
    return await pushToBranch(context, input, pushed, branch);
  } catch (error) {
    // A refusal of the service (a locked space, content it cannot take) is the ref's, and nothing was written.
    if (error instanceof ApiError && error.statusCode < 500) return refused(error.message);
    throw error;
  }
}

/** The commit of the space's line the pushed one was made on (the nearest of its first parents that is one), and its revision. */
async function baseOf(
  context: Context,
  input: PushCaller,
  pushed: PushedRef,
): Promise<{ revisionId: string; commit: string } | null> {
  const { stdout } = await runGit(['rev-list', '--first-parent', `--max-count=${TRACE_DEPTH}`, pushed.new], {
    gitDir: pushed.staging,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const shas = stdout.toString('utf8').split('\n').filter(Boolean);
  const revisions = await findCommitRevisions(context.db, input.organizationId, input.spaceId, shas);
  for (const sha of shas) {
    const revisionId = revisions.get(sha);
    if (revisionId !== undefined) return { revisionId, commit: sha };
  }
  return null;
}

/**
 * The pushed commit read as a Git Sync repository, with what of it is as its
 * base commit has it: the space's revision there is that commit's content,
 * so what Git left alone need not be read from the space again.
 */
async function readPushed(
  context: Context,
  input: PushCaller,
  pushed: PushedRef,
  base: { commit: string } | null,
): Promise<{ content: RepositoryContent; unchanged?: UnchangedSince }> {
  const read = await input.reader.read(await readCommitFiles(context, pushed.staging, pushed.new));
  if (base === null) return { content: read.content };
  const before = await input.reader.read(await readCommitFiles(context, pushed.staging, base.commit));
  return { content: read.content, unchanged: unchangedSince(before.fingerprints, read.fingerprints) };
}

async function commitSubject(context: Context, staging: string, sha: string): Promise<string> {
  const { stdout } = await runGit(['log', '-1', '--format=%s', sha], {
    gitDir: staging,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  return stdout.toString('utf8').trim().slice(0, 100);
}

async function pushToMain(context: Context, input: PushCaller, pushed: PushedRef): Promise<RefOutcome> {
  if (pushed.new === ZERO_SHA) return refused('main is the space itself and cannot be deleted');
  if (pushed.old === ZERO_SHA || !(await isAncestor(context, pushed.staging, pushed.old, pushed.new))) {
    return refused('force pushes to main are refused: pull, then push on top of the space');
  }
  if (!input.mayMerge) {
    return refused(
      'merging into main needs a token with the change-request:merge scope; push to another branch to open a change request',
    );
  }
  const base = await baseOf(context, input, pushed);
  if (base === null) return refused('the commit is not based on any commit of the space: pull first');
  const { content, unchanged } = await readPushed(context, input, pushed, base);
  const applied = await applyRepository(context, {
    organizationId: input.organizationId,
    spaceId: input.spaceId,
    userId: input.userId,
    content,
    ...(unchanged ? { unchanged } : {}),
    baseRevisionId: base.revisionId,
    subject: (await commitSubject(context, pushed.staging, pushed.new)) || 'Push to main',
    merge: true,
  });
  if (!applied.changed) return taken('Nothing of the space changed: its content already is the commit’s.');
  if (!applied.merged || applied.revisionId === null) {
    return refused(
      `it conflicts with changes merged in the space since the commit it is based on; nothing of the space changed, and change request #${applied.number} holds your changes: pull, resolve and push again`,
      `Change request #${applied.number} holds the push, open: ${changeRequestLink(context, input, applied.number)}`,
    );
  }
  await notePushedRevision(
    context.db,
    input.organizationId,
    input.spaceId,
    applied.revisionId,
    pushed.new,
    context.clock.now(),
  );
  return taken(
    `Merged into the space as revision ${applied.revisionId}.`,
    'main now has the space’s commit of it, on top of yours: `git pull` fast-forwards to it.',
  );
}

async function pushToBranch(context: Context, input: PushCaller, pushed: PushedRef, name: string): Promise<RefOutcome> {
  const existing = await findBranch(context.db, input.organizationId, input.spaceId, name);
  const live = existing && (existing.status === 'draft' || existing.status === 'open') ? existing : undefined;
  if (pushed.new === ZERO_SHA) {
    if (!live) return refused('no change request is open for this branch');
    await updateChangeRequest(context, input.userId, input.spaceId, live.changeRequestId, { status: 'archived' });
    await deleteBranch(context.db, input.organizationId, input.spaceId, name);
    return taken(`Change request #${live.number} is archived.`);
  }
  const base = await baseOf(context, input, pushed);
  // Into an open change request, its content is what the push is compared with, not the base's.
  const { content, unchanged } = await readPushed(context, input, pushed, live ? null : base);
  const applied = await applyRepository(context, {
    organizationId: input.organizationId,
    spaceId: input.spaceId,
    userId: input.userId,
    content,
    ...(unchanged ? { unchanged } : {}),
    baseRevisionId: base?.revisionId ?? null,
    subject: name.slice(0, 100),
    ...(live ? { changeRequestId: live.changeRequestId } : {}),
    merge: false,
  });
  if (applied.changeRequestId === null) {
    return taken('Nothing differs from the space: no change request was opened for this branch.');
  }
  // A pushed branch asks for review, as a pull request does: its change request is open, not a draft.
  if (!live) {
    await updateChangeRequest(context, input.userId, input.spaceId, applied.changeRequestId, { status: 'open' });
  }
  const revisionId = await findChangeRequestRevision(context.db, input.organizationId, applied.changeRequestId);
  if (revisionId === undefined) return refused('the change request is gone');
  await saveBranch(
    context.db,
    {
      organizationId: input.organizationId,
      spaceId: input.spaceId,
      name,
      changeRequestId: applied.changeRequestId,
      commitSha: pushed.new,
      revisionId,
    },
    context.clock.now(),
  );
  const verb = live ? 'is updated' : 'is open';
  return taken(`Change request #${applied.number} ${verb}: ${changeRequestLink(context, input, applied.number)}`);
}

function changeRequestLink(context: Context, input: PushCaller, number: number | null): string {
  return context.urls.app('o', input.organizationId, 's', input.spaceId, 'change-requests', String(number ?? ''));
}
