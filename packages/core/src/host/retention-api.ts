import type { RetentionRunner } from '../retention/retention-schedule.js';

/** `host.retention`: `sweep({ dryRun })` now; `sweeping()` the running or last one. */
export type HostRetentionApi = Pick<RetentionRunner, 'sweep' | 'sweeping'>;

/** The `host.retention` object over the retention runner. */
export function hostRetentionApi(retention: RetentionRunner): HostRetentionApi {
  return { sweep: (options) => retention.sweep(options), sweeping: () => retention.sweeping() };
}
