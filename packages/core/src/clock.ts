/**
 * The host's only source of time. Everything that waits or stamps goes through it (call timeouts, prompt timeouts,
 * elicitation deadlines, decision expiry, reconnect backoff), so a test moves time with a fake clock instead of
 * waiting on the wall clock. No member is optional: a clock that cannot schedule cannot drive a host.
 */
export interface Clock {
  /** Wall time, milliseconds since the epoch: what records and audit events are stamped with. */
  now(): number;
  /** Milliseconds on a clock that never goes back: what durations and deadlines are measured on. */
  monotonic(): number;
  /** Runs `run` once after `ms` milliseconds of this clock; returns its cancel (calling it twice is harmless). */
  setTimer(run: () => void, ms: number): () => void;
}

/** The process's clocks: `Date.now()`, `performance.now()` and the event loop's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer: (run, ms) => {
    const timer = setTimeout(run, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};
