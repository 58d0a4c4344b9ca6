import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian (and older Ubuntu) put Chromium; CHROMIUM_PATH comes first. */
const KNOWN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * How long getting Chromium may take, waiting for another process's install
 * included: apt-get fetches and unpacks some 100 MB. Below the browser hook's
 * timeout (browser.ts), so that a stuck install fails with its own message.
 */
export const CHROMIUM_INSTALL_TIMEOUT_MS = 8 * 60_000;

/** One install per machine: test files run in several processes at once. */
const INSTALL_LOCK = path.join(tmpdir(), 'quire-chromium-install.lock');

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Chromium executable on this machine, if there is one. A CHROMIUM_PATH that is not one is an error, not a fallback. */
export function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutableFile(configured))
      throw new Error(`CHROMIUM_PATH is ${configured}, which is not an executable file`);
    return configured;
  }
  return KNOWN_PATHS.find(isExecutableFile);
}

function findOnPath(command: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, command))
    .find(isExecutableFile);
}

/** Why this machine cannot install Chromium by itself, or undefined when apt-get can. */
export function whyChromiumCannotBeInstalled(): string | undefined {
  if (!findOnPath('apt-get')) return 'there is no apt-get to install it with';
  if (process.getuid?.() !== 0) return 'installing it needs root';
  return undefined;
}

export function missingChromiumMessage(reason: string): string {
  return (
    `Chromium is not installed (looked at CHROMIUM_PATH, ${KNOWN_PATHS.join(', ')}) and ${reason}. ` +
    `Install Debian's chromium package (apt-get install chromium), or set CHROMIUM_PATH to a Chromium or Chrome executable.`
  );
}

let pending: Promise<string> | undefined;

/**
 * The path of a Chromium executable, installing Debian's `chromium` package
 * first when there is none. Files in one process share the answer; processes
 * share one install through a lock file.
 */
export function ensureChromium(): Promise<string> {
  pending ??= findOrInstall().catch((error: unknown) => {
    pending = undefined; // A later file may try again: a failed download can be passing.
    throw error;
  });
  return pending;
}

async function findOrInstall(): Promise<string> {
  const found = findChromium();
  if (found) return found;
  const reason = whyChromiumCannotBeInstalled();
  if (reason) throw new Error(missingChromiumMessage(reason));
  const deadline = Date.now() + CHROMIUM_INSTALL_TIMEOUT_MS;
  await holdingInstallLock(deadline, async () => {
    // Another process may have installed it while this one waited for the lock.
    if (!findChromium()) await installWithApt(deadline);
  });
  const installed = findChromium();
  if (!installed) throw new Error(`apt-get installed chromium, yet none of ${KNOWN_PATHS.join(', ')} exists`);
  return installed;
}

/**
 * Runs `work` while holding the lock file. A lock whose holder has died, or
 * older than an install can take, is stale and removed. Two processes taking
 * over the same stale lock at once would both install: harmless, as apt-get
 * waits on its own lock and the second finds chromium already there.
 */
async function holdingInstallLock(deadline: number, work: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      const lock = await open(INSTALL_LOCK, 'wx');
      await lock.writeFile(String(process.pid));
      await lock.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await installLockIsStale()) {
      await rm(INSTALL_LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`Gave up waiting for another process's Chromium install (${INSTALL_LOCK})`);
    await sleep(1_000);
  }
  try {
    await work();
  } finally {
    await rm(INSTALL_LOCK, { force: true });
  }
}

async function installLockIsStale(): Promise<boolean> {
  try {
    const [holder, { mtimeMs }] = await Promise.all([readFile(INSTALL_LOCK, 'utf8'), stat(INSTALL_LOCK)]);
    if (Date.now() - mtimeMs > CHROMIUM_INSTALL_TIMEOUT_MS) return true;
    const pid = Number(holder);
    // An empty file is a lock being written by its holder right now.
    return Number.isInteger(pid) && pid > 0 && !processIsAlive(pid);
  } catch {
    return false; // Released meanwhile: the next attempt takes it.
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const INSTALL_ARGS = [
  'install',
  '-y',
  '--no-install-recommends',
  // Another apt-get or dpkg on the machine holds its lock for a while; wait instead of failing.
  '-o',
  'DPkg::Lock::Timeout=120',
  'chromium',
];

/** What apt-get says when its package lists are absent or out of date. */
const STALE_PACKAGE_LISTS = /Unable to locate package|has no installation candidate|run apt-get update/;

async function installWithApt(deadline: number): Promise<void> {
  const started = Date.now();
  let install = await runApt(INSTALL_ARGS, deadline);
  if (install.code !== 0 && STALE_PACKAGE_LISTS.test(install.output)) {
    const update = await runApt(['update'], deadline);
    if (update.code !== 0) throw new Error(`apt-get update failed (${update.code}):\n${update.output.slice(-2_000)}`);
    install = await runApt(INSTALL_ARGS, deadline);
  }
  if (install.code !== 0) {
    throw new Error(`apt-get install chromium failed (${install.code}):\n${install.output.slice(-2_000)}`);
  }
  process.stderr.write(`Installed Debian's chromium with apt-get in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

async function runApt(args: string[], deadline: number): Promise<{ code: number | string; output: string }> {
  const child = spawn('apt-get', args, {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: Math.max(1_000, deadline - Date.now()),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? `killed by ${signal}`, output }));
  });
}

/**
 * This machine's network is closed: without these Chromium keeps trying to reach
 * Google's services. Playwright adds `--headless` itself (headless: true), and
 * gives every launch a new empty profile (it refuses a --user-data-dir here).
 */
const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium, installing it first if needed. The caller closes it. */
export async function openBrowser(): Promise<Browser> {
  const executablePath = await ensureChromium();
  // Chromium's sandbox refuses to start as root; as anyone else it stays on.
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({
    executablePath,
    headless: true,
    chromiumSandbox: !asRoot,
    args: asRoot ? [...CHROMIUM_FLAGS, '--no-sandbox'] : CHROMIUM_FLAGS,
  });
}
