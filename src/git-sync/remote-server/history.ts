import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../../context.js';
import { GitProcessError, spawnGit } from './git-process.js';
import { renderedCommit, renderRevision, type Rendered } from './render.js';
import {
  findCurrentRevision,
  findLineRevisions,
  listLineRevisionsAfter,
  listLiveBranches,
  listRevisionCommits,
  saveBranch,
  saveRevisionCommits,
  type LineRevision,
  type RevisionCommit,
} from './queries.js';
import { ensureRepository, HIDDEN_REFS, listRefs, MAIN, presentCommits, remoteDir, updateRefs } from './repository.js';

/**
 * The space's history as Git sees it, brought up to date in its repository
 * before a client reads it. Branch `main` has one commit per revision of
 * the space's own line since the space was first fetched: its tree the
 * revision's content as GitBook's Git Sync writes it, its first parent the
 * commit of the revision before, its second the commit a push made the
 * revision from; author and committer the revision's maker, under an
 * address that hides theirs; its date the revision's. The same rows give the
 * same commits, so an instance whose repository is gone makes it again.
 *
 * The work is bounded: a first fetch makes one commit, of the current
 * revision (a space's earlier revisions stay in the service, not in Git); a
 * later one makes the newest GIT_REMOTE_COMMITS_PER_FETCH revisions since,
 * the next commit holding the changes of any left out. Only a repository
 * lost from disk is made again whole, one commit per row.
 *
 * Each pushed branch (git_remote_branches) points at the commit pushed to
 * it, or at a commit of its change request's content on top of that once
 * the change request moved since.
 */

interface Author {
  name: string;
  email: string;
}

/** One commit to make: its content a revision's, its parents commits made before (marks) or already there. */
interface CommitPlan {
  revisionId: string;
  /**
   * The commit of the space's line it follows, whose files it keeps where
   * they cannot differ (render.ts): the plan before (`previous`), one the
   * repository has, or none (every file written).
   */
  base?: 'previous' | { revisionId: string; commit: string };
  parents: Array<string | { mark: number }>;
  author: Author;
  date: Date;
  message: string;
}

const SERVICE_AUTHOR = 'Quire';

/** The address a commit names its author by: never the user's own, which only their organization may see. */
function authorOf(context: Context, revision: Pick<LineRevision, 'createdBy' | 'displayName'>): Author {
  const host = new URL(context.config.publicUrl).hostname;
  if (revision.createdBy === null) return { name: SERVICE_AUTHOR, email: `noreply@${host}` };
  return { name: revision.displayName ?? SERVICE_AUTHOR, email: `${revision.createdBy}@users.noreply.${host}` };
}

function messageOf(revision: LineRevision): string {
  const subject =
    revision.type === 'merge'
      ? revision.mergedSubject?.trim() || 'Merge a change request'
      : revision.type === 'rollback'
        ? 'Roll the space back'
        : 'Edit the space';
  return `${subject.split('\n')[0]!.slice(0, 200)}\n\nRevision ${revision.id} of the space.\n`;
}

/** A name or address as a Git identity line may hold it: no angle brackets, no line breaks. */
const identity = (text: string) => text.replace(/[<>\n\r]/g, '').trim() || SERVICE_AUTHOR;

function personLine(kind: 'author' | 'committer', author: Author, date: Date): string {
  return `${kind} ${identity(author.name)} <${identity(author.email)}> ${Math.floor(date.getTime() / 1000)} +0000\n`;
}

/**
 * Makes the commits with `git fast-import`, one revision's files in memory
 * at a time, and returns each one's sha in order. The build ref is reset
 * first, so a commit without parents starts a history of its own.
 */
async function makeCommits(
  context: Context,
  repository: string,
  organizationId: string,
  spaceId: string,
  plans: readonly CommitPlan[],
): Promise<string[]> {
  if (plans.length === 0) return [];
  const work = await mkdtemp(path.join(remoteDir(context), '.build-'));
  const marks = path.join(work, 'marks');
  const buildRef = `${HIDDEN_REFS}build`;
  const running = spawnGit(['fast-import', '--quiet', '--done', `--export-marks=${marks}`], {
    gitDir: repository,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const stdin = running.child.stdin;
  const write = (data: string | Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      if (stdin.destroyed) return reject(new GitProcessError(`git fast-import stopped: ${running.stderr()}`, false));
      if (stdin.write(data)) resolve();
      else stdin.once('drain', resolve);
    });
  const data = async (bytes: Uint8Array | string) => {
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    await write(`data ${buffer.byteLength}\n`);
    await write(buffer);
    await write('\n');
  };
  try {
    await write(`reset ${buildRef}\n`);
    let previous: Rendered | undefined;
    for (const [index, plan] of plans.entries()) {
      if (plan.base === undefined) previous = undefined;
      else if (plan.base !== 'previous') {
        previous = await renderedCommit(
          context,
          repository,
          organizationId,
          spaceId,
          plan.base.revisionId,
          plan.base.commit,
        );
      }
      const rendered = await renderRevision(context, organizationId, spaceId, plan.revisionId, previous);
      previous = rendered.rendered;
      await write(`commit ${buildRef}\nmark :${index + 1}\n`);
      await write(personLine('author', plan.author, plan.date) + personLine('committer', plan.author, plan.date));
      await data(plan.message);
      const [first, ...others] = plan.parents.map((parent) =>
        typeof parent === 'string' ? parent : `:${parent.mark}`,
      );
      if (first !== undefined) await write(`from ${first}\n`);
      for (const other of others) await write(`merge ${other}\n`);
      await write('deleteall\n');
      for (const [file, content] of rendered.files) {
        if ('blob' in content) {
          await write(`M 100644 ${content.blob} ${quotePath(file)}\n`);
        } else {
          await write(`M 100644 inline ${quotePath(file)}\n`);
          await data(content.bytes);
        }
      }
      // The next plan without parents must not grow from this one.
      if (plans[index + 1]?.parents.length === 0) await write(`reset ${buildRef}\n`);
    }
    await write(`reset ${buildRef}\nfrom 0000000000000000000000000000000000000000\ndone\n`);
    stdin.end();
    const code = await running.done;
    if (code !== 0) throw new GitProcessError(`git fast-import failed: ${running.stderr().trim()}`, false);
    const shas = new Map<number, string>();
    for (const line of (await readFile(marks, 'utf8')).split('\n')) {
      const [mark, sha] = line.split(' ');
      if (mark && sha) shas.set(Number(mark.slice(1)), sha);
    }
    return plans.map((_plan, index) => shas.get(index + 1)!);
  } catch (error) {
    running.kill();
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A path as fast-import reads it: quoted C-style when it has a quote, backslash, line break or starts with one. */
function quotePath(file: string): string {
  if (!/["\\\n]/.test(file) && !file.startsWith('"')) return file;
  return `"${file.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * Brings the space's repository up to date with the space (main) and its
 * pushed branches; called holding the space's lock.
 */
export async function syncHistory(context: Context, organizationId: string, spaceId: string): Promise<void> {
  const repository = await ensureRepository(context, spaceId);
  const current = await findCurrentRevision(context.db, organizationId, spaceId);
  if (!current) return;
  const rows = await listRevisionCommits(context.db, organizationId, spaceId);
  const present = await presentCommits(context, repository, [
    ...rows.map((row) => row.commitSha),
    ...rows.flatMap((row) => (row.pushedSha ? [row.pushedSha] : [])),
  ]);
  // A row whose commit is its pushed one was noted by a push, its commit not built yet.
  const built = rows.filter((row) => row.commitSha !== row.pushedSha);
  const whole = built.every((row) => present.has(row.commitSha));
  const lastBuilt = built.at(-1);
  const kept = whole ? built : [];
  const redo = whole ? [] : built;
  const pending = rows.filter((row) => row.commitSha === row.pushedSha);
  const fresh =
    lastBuilt === undefined
      ? await findLineRevisions(context.db, spaceId, [current.revisionId])
      : await listLineRevisionsAfter(
          context.db,
          organizationId,
          spaceId,
          lastBuilt.seq,
          context.config.gitRemote.commitsPerFetch,
        );
  const wanted = new Map<string, RevisionCommit | undefined>();
  for (const row of [...redo, ...pending]) wanted.set(row.revisionId, row);
  for (const revision of fresh) if (!wanted.has(revision.id)) wanted.set(revision.id, undefined);
  const revisions = await findLineRevisions(context.db, spaceId, [...wanted.keys()]);

  const plans: CommitPlan[] = [];
  const last = kept.at(-1);
  let parent: string | { mark: number } | undefined = last?.commitSha;
  for (const revision of revisions) {
    const row = wanted.get(revision.id);
    const pushed = row?.pushedSha && present.has(row.pushedSha) ? row.pushedSha : undefined;
    plans.push({
      revisionId: revision.id,
      ...(plans.length > 0
        ? { base: 'previous' as const }
        : last
          ? { base: { revisionId: last.revisionId, commit: last.commitSha } }
          : {}),
      parents: [...(parent === undefined ? [] : [parent]), ...(pushed ? [pushed] : [])],
      author: row?.author ?? authorOf(context, revision),
      date: revision.createdAt,
      message: messageOf(revision),
    });
    parent = { mark: plans.length };
  }
  const shas = await makeCommits(context, repository, organizationId, spaceId, plans);
  const made = plans.map((plan, index): RevisionCommit => ({
    revisionId: plan.revisionId,
    commitSha: shas[index]!,
    pushedSha: typeof plan.parents[1] === 'string' ? plan.parents[1] : null,
    author: plan.author,
  }));
  await saveRevisionCommits(context.db, organizationId, spaceId, made, context.clock.now());
  const tip = made.at(-1)?.commitSha ?? kept.at(-1)?.commitSha;
  const branches = await syncBranches(context, repository, organizationId, spaceId);
  const refs = await listRefs(context, repository);
  const updates: Array<{ ref: string; sha: string | null }> = [];
  if (tip !== undefined && refs.get(MAIN) !== tip) updates.push({ ref: MAIN, sha: tip });
  for (const [ref, sha] of branches) if (refs.get(ref) !== sha) updates.push({ ref, sha });
  for (const ref of refs.keys()) {
    if (ref.startsWith('refs/heads/') && ref !== MAIN && !branches.has(ref)) updates.push({ ref, sha: null });
  }
  await updateRefs(context, repository, updates);
}

/** Each live pushed branch's commit by ref, a commit of its change request's content made where it moved. */
async function syncBranches(
  context: Context,
  repository: string,
  organizationId: string,
  spaceId: string,
): Promise<Map<string, string>> {
  const branches = await listLiveBranches(context.db, organizationId, spaceId);
  const present = await presentCommits(
    context,
    repository,
    branches.map((branch) => branch.commitSha),
  );
  const moved = branches.filter(
    (branch) => branch.currentRevisionId !== branch.revisionId || !present.has(branch.commitSha),
  );
  const refs = new Map<string, string>();
  for (const branch of branches) if (!moved.includes(branch)) refs.set(`refs/heads/${branch.name}`, branch.commitSha);
  if (moved.length === 0) return refs;
  const makers = await context.db
    .selectFrom('revisions as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select(['r.id', 'r.created_by as createdBy', 'u.display_name as displayName', 'r.created_at as createdAt'])
    .where('r.space_id', '=', spaceId)
    .where(
      'r.id',
      'in',
      moved.map((branch) => branch.currentRevisionId),
    )
    .execute();
  const byId = new Map(makers.map((maker) => [maker.id, maker]));
  const plans = moved.map((branch): CommitPlan => {
    const maker = byId.get(branch.currentRevisionId);
    return {
      revisionId: branch.currentRevisionId,
      parents: present.has(branch.commitSha) ? [branch.commitSha] : [],
      author: authorOf(context, { createdBy: maker?.createdBy ?? null, displayName: maker?.displayName ?? null }),
      date: maker?.createdAt ?? context.clock.now(),
      message: `Edit ${branch.name} in its change request\n\nRevision ${branch.currentRevisionId} of the change request.\n`,
    };
  });
  const shas = await makeCommits(context, repository, organizationId, spaceId, plans);
  for (const [index, branch] of moved.entries()) {
    const sha = shas[index]!;
    refs.set(`refs/heads/${branch.name}`, sha);
    await saveBranch(
      context.db,
      {
        organizationId,
        spaceId,
        name: branch.name,
        changeRequestId: branch.changeRequestId,
        commitSha: sha,
        revisionId: branch.currentRevisionId,
      },
      context.clock.now(),
    );
  }
  return refs;
}
