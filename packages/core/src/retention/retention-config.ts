import { HostError } from '../errors/host-error.js';

/** One day in milliseconds: retention windows are given in days. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each kind of data is kept, in days; `null` keeps it forever. */
export interface RetentionWindows {
  /** The whole text of results (`fullText`, `rawJson`); the model and screen payloads stay with the history row. */
  readonly results?: number | null;
  /** History rows: the call, its transitions and what is left of its result. */
  readonly history?: number | null;
}

/**
 * What the host keeps and for how long. Audit events (elicitation records among them: the host stores a question
 * only as its audit event) form one chain, so their window is the host's, not a workspace's.
 */
export interface RetentionConfig extends RetentionWindows {
  /** Audit events, pruned behind a checkpoint (see `AuditLog.prune`). */
  readonly audit?: number | null;
  /**
   * Chat conversations, by the time they were last updated. Default null: kept, as a user's chats are theirs to
   * delete; an operator who keeps history a bounded time sets this too.
   */
  readonly conversations?: number | null;
  /**
   * Stored permission decisions past their expiry (an allow for one conversation whose session ended, an allow
   * always that ran out), this many days after it. Default 30: meanwhile the prompt can still say the allow expired.
   */
  readonly expiredDecisions?: number | null;
  /** A workspace's own windows (a team with its own policy); a kind it leaves out takes the host's. */
  readonly workspaces?: Readonly<Record<string, RetentionWindows>>;
  /** How often the sweep runs on the host's clock, after the one at start. Default: hourly. */
  readonly sweepEveryMs?: number;
  /** Rows per transaction. Default 200: a sweep never holds the store for long. */
  readonly batch?: number;
  /** False: no sweep at start nor on a schedule, only `sweep()` when asked (a short-lived CLI). Default true. */
  readonly schedule?: boolean;
}

/**
 * The windows when the config leaves a kind out: results 7 days, history 90 days, audit events 400 days, expired
 * decisions 30 days past their expiry; conversations are kept.
 */
export const RETENTION_DEFAULTS = {
  results: 7,
  history: 90,
  audit: 400,
  conversations: null,
  expiredDecisions: 30,
} as const;

/** The config with every default filled in and checked. */
export interface ResolvedRetention {
  readonly results: number | null;
  readonly history: number | null;
  readonly audit: number | null;
  readonly conversations: number | null;
  readonly expiredDecisions: number | null;
  readonly workspaces: Readonly<Record<string, { readonly results: number | null; readonly history: number | null }>>;
  readonly sweepEveryMs: number;
  readonly batch: number;
}

function days(value: unknown, fallback: number | null, field: string): number | null {
  if (value === undefined) return fallback;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new HostError('config_invalid', `${field} must be a number of days above 0, or null to keep forever`);
  }
  return value;
}

/** Fills in the defaults; a window that is not a positive number of days or null is refused, naming it. */
export function resolveRetention(config: RetentionConfig = {}): ResolvedRetention {
  const results = days(config.results, RETENTION_DEFAULTS.results, 'retention.results');
  const history = days(config.history, RETENTION_DEFAULTS.history, 'retention.history');
  const workspaces: Record<string, { results: number | null; history: number | null }> = {};
  for (const [id, w] of Object.entries(config.workspaces ?? {})) {
    workspaces[id] = {
      results: days(w.results, results, `retention.workspaces.${id}.results`),
      history: days(w.history, history, `retention.workspaces.${id}.history`),
    };
  }
  const sweepEveryMs = config.sweepEveryMs ?? 60 * 60 * 1000;
  if (!Number.isFinite(sweepEveryMs) || sweepEveryMs <= 0) {
    throw new HostError('config_invalid', 'retention.sweepEveryMs must be a positive number of milliseconds');
  }
  const batch = config.batch ?? 200;
  if (!Number.isInteger(batch) || batch < 1 || batch > 1000) {
    throw new HostError('config_invalid', 'retention.batch must be an integer from 1 to 1000');
  }
  return {
    results,
    history,
    audit: days(config.audit, RETENTION_DEFAULTS.audit, 'retention.audit'),
    conversations: days(config.conversations, RETENTION_DEFAULTS.conversations, 'retention.conversations'),
    expiredDecisions: days(config.expiredDecisions, RETENTION_DEFAULTS.expiredDecisions, 'retention.expiredDecisions'),
    workspaces,
    sweepEveryMs,
    batch,
  };
}
