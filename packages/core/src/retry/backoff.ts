/** How a retry waits: the first delay, the cap, and how much of each delay is drawn at random. */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  /**
   * The share of each delay drawn at random, 0 to 1 (default 0.5: a delay lies between half and all of the capped
   * exponential value). Many instances that lost one database at once then do not all come back in the same
   * millisecond. 0 keeps delays exact (a single process's reconnect a surface announces to the second).
   */
  readonly jitter?: number;
}

/**
 * The delay before retry number `attempt` (0 for the first): capped exponential backoff with jitter. Every retry of
 * the host waits by this one rule, on the host's clock, so a fake clock drives them all in tests.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const capped = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt));
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0.5));
  return Math.round(capped * (1 - jitter) + capped * jitter * random());
}
