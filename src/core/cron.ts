import { Cron } from 'croner';

/** Whether croner accepts the pattern, for the configuration check. */
export function isCronPattern(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}
