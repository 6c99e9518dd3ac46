/** The host's source of time, replaceable in tests (expiry, timestamps). Milliseconds since the epoch. */
export interface Clock {
  now(): number;
  /**
   * Runs `run` after `ms` on this clock and returns its cancel. Optional: timers the host keeps for people (an
   * elicitation's deadline) use it when given, so a test's clock can move them; otherwise the event loop's timers.
   */
  schedule?(run: () => void, ms: number): () => void;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
