/** The host's source of time, replaceable in tests (expiry, timestamps). Milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
