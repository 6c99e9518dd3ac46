import type { RetentionConfig } from './retention-config.js';
import { resolveRetention } from './retention-config.js';

import type { RetentionReport, RetentionSweepDeps } from './retention-sweep.js';
import { sweepRetention } from './retention-sweep.js';

/** The host's retention: a sweep on demand, and (when configured) at start and on a schedule of the host's clock. */
export interface RetentionRunner {
  /** Runs a sweep now (after any running one); `dryRun` counts what would go and changes nothing. */
  sweep(options?: { dryRun?: boolean }): Promise<RetentionReport>;
  /** The sweep now running, or the last one, once done (undefined before the first or when it failed). */
  sweeping(): Promise<RetentionReport | undefined>;
  /** Stops the schedule and waits for a running sweep. */
  stop(): Promise<void>;
}

/**
 * Retention for a host. With `config` given, a sweep runs at start and every `sweepEveryMs` of the host's clock;
 * without it nothing is swept by itself (the host keeps everything, as it always did) and `sweep()` applies the
 * default windows when called (what `airlock retention` does). A failed sweep is reported to `onError`; the schedule
 * goes on. Sweeps never overlap.
 */
export function startRetention(
  deps: Omit<RetentionSweepDeps, 'retention'>,
  config: RetentionConfig | undefined,
  onError: (error: unknown) => void,
): RetentionRunner {
  const retention = resolveRetention(config);
  let last: Promise<RetentionReport | undefined> = Promise.resolve(undefined);
  let stopTimer: (() => void) | undefined;
  let stopped = false;
  const sweep = (options: { dryRun?: boolean } = {}): Promise<RetentionReport> => {
    const run = last.then(() => sweepRetention({ ...deps, retention }, options));
    last = run.catch(() => undefined);
    return run;
  };
  const scheduled = () => {
    if (stopped) return;
    sweep().catch(onError);
    stopTimer = deps.clock.setTimer(scheduled, retention.sweepEveryMs);
  };
  if (config !== undefined && config.schedule !== false) scheduled();
  return {
    sweep,
    sweeping: () => last,
    stop: async () => {
      stopped = true;
      stopTimer?.();
      await last;
    },
  };
}
