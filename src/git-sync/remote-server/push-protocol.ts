import { FLUSH, lineText, pktLine, readPktLines, sideBand } from './pkt-line.js';

/**
 * The parts of receive-pack's protocol the service reads and writes itself
 * (gitprotocol-pack, gitprotocol-http): the ref update commands at the head
 * of a push's request, and the report-status its answer holds. The pack
 * between them is receive-pack's.
 */

export const ZERO_SHA = '0000000000000000000000000000000000000000';

export interface RefCommand {
  old: string;
  new: string;
  ref: string;
}

export interface PushHead {
  commands: RefCommand[];
  /** `shallow <sha>` lines a push from a shallow clone starts with, passed on as sent. */
  shallow: Buffer[];
  /** What the client asked for. */
  capabilities: string[];
  /** The bytes after the commands' flush: the start of the pack. */
  rest: Buffer;
}

/** Most bytes the commands of one push may take. */
export const MAX_HEAD_BYTES = 1024 * 1024;
const MAX_COMMANDS = 1000;
const COMMAND = /^([0-9a-f]{40}) ([0-9a-f]{40}) (refs\/[^\0 ]{1,250})$/;

/** The commands at the head of `buffer`, or 'more' while their flush has not come, or a reason they are malformed. */
export function readPushHead(buffer: Buffer): PushHead | 'more' | { malformed: string } {
  const read = readPktLines(buffer, { untilFlush: true });
  if (!read) return { malformed: 'a pkt-line length is malformed' };
  if (!read.flushed) return buffer.byteLength > MAX_HEAD_BYTES ? { malformed: 'the commands are too long' } : 'more';
  const commands: RefCommand[] = [];
  const shallow: Buffer[] = [];
  let capabilities: string[] = [];
  for (const line of read.lines) {
    if (line === 'flush') break;
    if (line === 'delim') return { malformed: 'an unexpected delimiter' };
    const text = lineText(line);
    if (text.startsWith('shallow ')) {
      shallow.push(line);
      continue;
    }
    const [command, caps] = commands.length === 0 ? text.split('\0') : [text, undefined];
    const match = COMMAND.exec(command ?? '');
    if (!match) return { malformed: `a command is malformed: ${JSON.stringify(text.slice(0, 100))}` };
    if (caps !== undefined) capabilities = caps.split(' ').filter(Boolean);
    commands.push({ old: match[1]!, new: match[2]!, ref: match[3]! });
    if (commands.length > MAX_COMMANDS) return { malformed: `more than ${MAX_COMMANDS} ref updates` };
  }
  return { commands, shallow, capabilities, rest: buffer.subarray(read.offset) };
}

/** Capabilities receive-pack is asked for: report-status, plain (the service writes the side band), never atomic. */
const DROPPED = new Set(['side-band', 'side-band-64k', 'report-status-v2', 'atomic', 'push-options']);

/** The head as receive-pack is given it: the client's capabilities but the side band, report-status v1 always. */
export function headForReceivePack(head: PushHead): Buffer {
  const kept = head.capabilities.filter((cap) => !DROPPED.has(cap) && cap !== 'report-status');
  const caps = ['report-status', ...kept].join(' ');
  return Buffer.concat([
    ...head.shallow.map((line) => pktLine(line)),
    ...head.commands.map((command, index) =>
      pktLine(`${command.old} ${command.new} ${command.ref}${index === 0 ? `\0${caps}` : ''}\n`),
    ),
    FLUSH,
  ]);
}

export interface ReceivePackReport {
  unpack: string;
  /** Per ref: null when receive-pack took the update, else its reason. */
  refs: Map<string, string | null>;
}

/** receive-pack's report-status (v1, no side band). */
export function readReport(output: Buffer): ReceivePackReport {
  const read = readPktLines(output, { untilFlush: true });
  const report: ReceivePackReport = { unpack: 'no report from receive-pack', refs: new Map() };
  for (const line of read?.lines ?? []) {
    if (line === 'flush' || line === 'delim') break;
    const text = lineText(line);
    if (text.startsWith('unpack ')) report.unpack = text.slice('unpack '.length);
    else if (text.startsWith('ok ')) report.refs.set(text.slice(3), null);
    else if (text.startsWith('ng ')) {
      const [ref, ...reason] = text.slice(3).split(' ');
      report.refs.set(ref!, reason.join(' ') || 'refused');
    }
  }
  return report;
}

/** A reason as one line of a report: no line breaks, bounded. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 900);

/**
 * The answer to the push: the report-status (`unpack`, then `ok <ref>` or
 * `ng <ref> <reason>` per command), with messages for the client to print
 * before it, in the side band when the client asked for one.
 */
export function pushAnswer(
  capabilities: readonly string[],
  unpack: string,
  results: ReadonlyArray<{ ref: string; refused: string | null }>,
  messages: readonly string[],
): Buffer {
  const report = Buffer.concat([
    pktLine(`unpack ${oneLine(unpack)}\n`),
    ...results.map(({ ref, refused }) => pktLine(refused === null ? `ok ${ref}\n` : `ng ${ref} ${oneLine(refused)}\n`)),
    FLUSH,
  ]);
  const wantsReport = capabilities.includes('report-status') || capabilities.includes('report-status-v2');
  if (!capabilities.includes('side-band-64k') && !capabilities.includes('side-band')) {
    return wantsReport ? report : Buffer.alloc(0);
  }
  const said = Buffer.from(messages.map((message) => `${message}\n`).join(''), 'utf8');
  return Buffer.concat([...sideBand(2, said), ...(wantsReport ? sideBand(1, report) : []), FLUSH]);
}
