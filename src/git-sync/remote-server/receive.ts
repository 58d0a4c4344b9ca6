import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { runGit, spawnGit } from './git-process.js';
import { addGitSettings } from './git-config.js';
import { applyPushedRef, type PushCaller, type PushedRef, type RefOutcome } from './push-refs.js';
import { headForReceivePack, pushAnswer, readPushHead, readReport, ZERO_SHA, type PushHead } from './push-protocol.js';
import {
  adoptObjects,
  ensureRepository,
  HIDDEN_REFS,
  listRefs,
  MAIN,
  remoteDir,
  updateRefs,
  withSpaceLock,
} from './repository.js';
import { syncHistory } from './history.js';
import { findCommitRevisions } from './queries.js';
import { ApiError } from '../../core/errors.js';

/**
 * A `git push` to a space. The pack goes into a staging repository (its
 * objects beside the space's repository's, which it borrows through
 * alternates) with receive-pack, which checks it; then each updated branch's
 * tree is read as a Git Sync repository and written into the space
 * (push-refs.ts): main merged, any other branch a change request. The
 * answer's report says, per ref, what became of it; only what was taken
 * joins the space's repository.
 */

export interface PushInput extends PushCaller {
  body: Readable;
}

type HeadRead = { head: PushHead; bytes: number } | { refused: string; bytes: number };

/** The body's chunks, read in two parts (the commands, then the pack) without ending the stream between them. */
type Chunks = AsyncIterator<Buffer>;

/** Reads the body up to the commands' flush. */
async function readHead(body: Chunks): Promise<HeadRead> {
  let buffer = Buffer.alloc(0);
  for (let next = await body.next(); !next.done; next = await body.next()) {
    buffer = Buffer.concat([buffer, next.value]);
    const head = readPushHead(buffer);
    if (head === 'more') continue;
    if ('malformed' in head) return { refused: `The push is malformed: ${head.malformed}`, bytes: buffer.byteLength };
    return { head, bytes: buffer.byteLength };
  }
  const head = readPushHead(Buffer.concat([buffer, Buffer.from('0000')]));
  // A body that ends without its flush is a probe (an empty push) or cut short.
  if (buffer.byteLength === 0) return { head: { commands: [], shallow: [], capabilities: [], rest: buffer }, bytes: 0 };
  if (head === 'more' || 'malformed' in head) return { refused: 'The push is cut short', bytes: buffer.byteLength };
  return { head, bytes: buffer.byteLength };
}

/**
 * Lets the rest of the body go unread, so the client gets the answer rather
 * than a broken pipe. The async iterator that read its start listens for
 * 'readable', which keeps the stream from flowing: without that listener gone
 * the body stayed paused, and its connection open after the client had left.
 */
function discard(body: Readable): void {
  body.removeAllListeners('readable');
  body.on('data', () => {});
  body.on('error', () => {});
  body.resume();
}

/** The answer to the push, whole: the report and any messages. */
export async function receivePush(context: Context, input: PushInput): Promise<Buffer> {
  const limit = context.config.gitRemote.maxPushBytes;
  const chunks = input.body[Symbol.asyncIterator]() as Chunks;
  const read = await readHead(chunks);
  if ('refused' in read) {
    discard(input.body);
    throw new ApiError(400, read.refused);
  }
  const { head } = read;
  if (head.commands.length === 0) {
    discard(input.body);
    return Buffer.alloc(0);
  }
  const tooLarge = `the push is over the ${limit}-byte limit of this service (GIT_REMOTE_MAX_PUSH_BYTES)`;
  const refuseAll = (reason: string, messages: string[] = []) =>
    pushAnswer(
      head.capabilities,
      reason,
      head.commands.map((command) => ({ ref: command.ref, refused: reason })),
      messages,
    );
  if (read.bytes > limit) {
    discard(input.body);
    return refuseAll(tooLarge);
  }

  const repository = await withSpaceLock(context, input.spaceId, async () => {
    await syncHistory(context, input.organizationId, input.spaceId);
    return ensureRepository(context, input.spaceId);
  });
  const staging = await mkdtemp(path.join(remoteDir(context), `.push-${input.spaceId}-`));
  try {
    await prepareStaging(context, input, repository, staging, head);
    const received = await runReceivePack(context, staging, head, read.bytes, { chunks, body: input.body }, limit);
    if (received === 'too-large') return refuseAll(tooLarge);
    const report = readReport(received);
    if (report.unpack !== 'ok') return refuseAll(`unpack failed: ${report.unpack}`);

    const messages: string[] = [];
    const results = await withSpaceLock(context, input.spaceId, async () => {
      const outcomes: Array<{ ref: string; refused: string | null }> = [];
      let taken = false;
      for (const command of head.commands) {
        const refusedByGit = report.refs.has(command.ref) ? report.refs.get(command.ref)! : 'not updated';
        if (refusedByGit !== null) {
          outcomes.push({ ref: command.ref, refused: refusedByGit });
          continue;
        }
        const pushed: PushedRef = { ...command, staging };
        const outcome: RefOutcome = await applyPushedRef(context, input, pushed);
        messages.push(...outcome.messages);
        outcomes.push({ ref: command.ref, refused: outcome.refused });
        if (outcome.refused === null) taken = true;
      }
      if (taken) {
        await adoptObjects(staging, repository);
        await syncHistory(context, input.organizationId, input.spaceId);
      }
      return outcomes;
    });
    return pushAnswer(head.capabilities, 'ok', results, messages);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * A bare repository borrowing the space's objects, with its branches where
 * the space's are; main where the client says it was, when that is a commit
 * of the space's line (a push based on a revision since merged over is
 * written on that base, and merged when it applies cleanly).
 */
async function prepareStaging(
  context: Context,
  space: { organizationId: string; spaceId: string },
  repository: string,
  staging: string,
  head: PushHead,
): Promise<void> {
  const timeoutMs = context.config.gitRemote.timeoutMs;
  await runGit(['init', '--bare', '--quiet', '--initial-branch=main', staging], { timeoutMs });
  await writeFile(path.join(staging, 'objects/info/alternates'), `${path.join(repository, 'objects')}\n`);
  const settings: Array<[string, string]> = [
    ['receive.denyNonFastForwards', 'false'],
    ['receive.denyDeletes', 'false'],
    // Deleting main is refused with the service's own reason (push-refs.ts).
    ['receive.denyDeleteCurrent', 'false'],
    ['receive.fsckObjects', 'true'],
    ['core.hooksPath', '/dev/null'],
    ['transfer.hideRefs', HIDDEN_REFS],
  ];
  await addGitSettings(staging, settings);
  const refs = await listRefs(context, repository);
  const updates = [...refs].filter(([ref]) => ref.startsWith('refs/heads/')).map(([ref, sha]) => ({ ref, sha: sha }));
  const main = head.commands.find((command) => command.ref === MAIN);
  if (main && main.old !== ZERO_SHA && main.old !== refs.get(MAIN)) {
    const known = await findCommitRevisions(context.db, space.organizationId, space.spaceId, [main.old]);
    const at = updates.find((update) => update.ref === MAIN);
    if (known.size > 0 && at) at.sha = main.old;
  }
  await updateRefs(context, staging, updates);
}

/** receive-pack on the staging repository: the head as rewritten, then the rest of the body, counted. */
async function runReceivePack(
  context: Context,
  staging: string,
  head: PushHead,
  headBytes: number,
  { chunks, body }: { chunks: Chunks; body: Readable },
  limit: number,
): Promise<Buffer | 'too-large'> {
  const running = spawnGit(['receive-pack', '--stateless-rpc', staging], {
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const output: Buffer[] = [];
  running.child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  const stdin = running.child.stdin;
  const write = (data: Buffer) =>
    new Promise<void>((resolve) => {
      if (stdin.destroyed || stdin.write(data)) resolve();
      else stdin.once('drain', resolve);
    });
  let bytes = headBytes;
  let tooLarge = false;
  await write(headForReceivePack(head));
  if (head.rest.byteLength > 0) await write(head.rest);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    bytes += next.value.byteLength;
    if (bytes > limit) {
      tooLarge = true;
      running.kill();
      discard(body);
      break;
    }
    await write(next.value);
  }
  stdin.end();
  await running.done.catch((error: unknown) => {
    if (!tooLarge) throw error;
  });
  if (tooLarge) return 'too-large';
  return Buffer.concat(output);
}
