import { FailedAuthLimiter } from '../access/failed-auth.js';
import type { WorkerCounters } from '../core/processes/rate-limit-counters.js';

/** Failed password sign-ins one address may make in a window, to any accounts: a person mistyping is far below it. */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
/** Failed sign-ins to one account from one address in a window: guessing one person's password from one place is this slow. */
export const SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
/**
 * Failed sign-ins to one account in a window from anywhere: the ceiling of
 * guessing from many addresses. Above what one address may fail in all, so
 * that one address alone cannot lock a person out of their account.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT = 50;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Links (to set a new password, to prove the address) one client address may ask for in a window, and one account may be sent. */
export const RESETS_PER_ADDRESS = 20;
export const RESETS_PER_ACCOUNT = 3;
export const RESET_WINDOW_MS = 60 * 60_000;

/**
 * Bounds password guessing: failed sign-ins are counted per address, per
 * account and address, and per account, and past any bound the form answers
 * 429 without checking the password. With several processes on a port
 * (PROCESSES) the counts are the processes' sum, as the rate limits are.
 */
export class SignInLimits {
  private readonly byAddress: FailedAuthLimiter;
  private readonly byAccountAndAddress: FailedAuthLimiter;
  private readonly byAccount: FailedAuthLimiter;
  private readonly resetsByAddress: FailedAuthLimiter;
  private readonly resetsByAccount: FailedAuthLimiter;

  constructor(shared?: WorkerCounters) {
    this.byAddress = new FailedAuthLimiter(SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS, shared);
    this.byAccountAndAddress = new FailedAuthLimiter(
      SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      SIGN_IN_WINDOW_MS,
      shared,
    );
    this.byAccount = new FailedAuthLimiter(SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_WINDOW_MS, shared);
    this.resetsByAddress = new FailedAuthLimiter(RESETS_PER_ADDRESS, RESET_WINDOW_MS, shared);
    this.resetsByAccount = new FailedAuthLimiter(RESETS_PER_ACCOUNT, RESET_WINDOW_MS, shared);
  }

  /** Seconds to wait before the next try, when the address, the pair or the account used up its tries; else undefined. */
  waitSeconds(address: string, email: string, now: number): number | undefined {
    return (
      this.byAddress.retryAfter(addressKey(address), now) ??
      this.byAccountAndAddress.retryAfter(pairKey(address, email), now) ??
      this.byAccount.retryAfter(accountKey(email), now)
    );
  }

  recordFailure(address: string, email: string, now: number): void {
    this.byAddress.recordFailure(addressKey(address), now);
    this.byAccountAndAddress.recordFailure(pairKey(address, email), now);
    this.byAccount.recordFailure(accountKey(email), now);
  }

  /**
   * Seconds to wait before asking for another mailed link (a new password,
   * a proof of the address), when the client address or the account asked
   * too often; else undefined. Every
   * ask counts, whether or not a mail went: a mailbox is not flooded, and the
   * answer tells nothing of whether the account exists.
   */
  mailWaitSeconds(address: string, email: string, now: number): number | undefined {
    return (
      this.resetsByAddress.retryAfter(resetAddressKey(address), now) ??
      this.resetsByAccount.retryAfter(resetAccountKey(email), now)
    );
  }

  recordMail(address: string, email: string, now: number): void {
    this.resetsByAddress.recordFailure(resetAddressKey(address), now);
    this.resetsByAccount.recordFailure(resetAccountKey(email), now);
  }
}

const addressKey = (address: string) => `sign-in address ${address}`;
const accountKey = (email: string) => `sign-in account ${email.toLowerCase()}`;
const pairKey = (address: string, email: string) => `sign-in pair ${address} ${email.toLowerCase()}`;
const resetAddressKey = (address: string) => `reset address ${address}`;
const resetAccountKey = (email: string) => `reset account ${email.toLowerCase()}`;
