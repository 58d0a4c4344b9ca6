/** Where the service reads the time; tests pass one they can move. */
export interface Clock {
  now(): Date;
}

/** The system time at millisecond precision, which is what the API shows and stores. */
export const systemClock: Clock = { now: () => new Date() };
