import type { InputResolver } from '../config/config-inputs.js';
import type { Clock } from '../clock.js';
import type { HostAuthConfig } from '../auth/host-auth.js';
import type { AuditAnchorConfig } from '../audit/audit-log.js';
import type { Durability } from '../history/history-writer.js';
import type { BoundLimits } from '../invocations/bound-result.js';
import type { ToolLimits } from '../invocations/invocation-pipeline.js';
import type { PreCallHook } from '../invocations/pre-call-chain.js';
import type { TimeoutLimits } from '../invocations/run-with-timeouts.js';
import type { PermissionConfig } from '../permissions/permission-config.js';
import type { RetentionConfig } from '../retention/retention-config.js';
import type { ServerConfig } from '../servers/server-config.js';
import type { ConnectionLimits } from '../servers/connection-limits.js';
import type { TenantConnectionLimits } from '../servers/server-pool.js';
import type { HostStore } from '../store/host-store.js';
import type { TasksConfig } from '../tasks/tasks-config.js';
import type { Surface } from './surface.js';
import type { NativeToolDefinition } from '../tools/tool-registry.js';
import type { TelemetryConfig } from '../telemetry/tool-spans.js';

/** How long a server's question waits for the user when the limits do not say: 5 minutes. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 5 * 60_000;

/** All limits of a host; every field has a default (shared/DESIGN.md, Bounds). */
export interface HostLimits
  extends Partial<BoundLimits>, Partial<TimeoutLimits>, Partial<ConnectionLimits>, Partial<TenantConnectionLimits> {
  /** Per-tool overrides of bounds and timeouts, keyed by host tool name. */
  readonly tools?: ToolLimits & Readonly<Record<string, { readonly elicitationTimeoutMs?: number }>>;
  /** How long a server's question waits for the user before it closes with cancel. Default 5 minutes. */
  readonly elicitationTimeoutMs?: number;
  /**
   * The least time between two history commits, in milliseconds; calls in between share one transaction. Default 5.
   * 0 commits on every turn of the event loop. A crash can lose at most what waited for the next commit, within
   * `HISTORY_LOSS_BOUND` (see `durability`).
   */
  readonly commitIntervalMs?: number;
}

/** What `createHost` takes. Only `servers` matters for a first run; the rest has defaults. */
export interface HostConfig {
  /** Parsed `ServerConfig`s, or the raw `mcpServers` JSON object. */
  readonly servers?: readonly ServerConfig[] | Record<string, unknown>;
  /** Default: a `MemoryStore` (nothing survives the process). */
  readonly store?: HostStore;
  /** Who answers permission requests. None: every call is denied with a clear reason (fail closed). */
  readonly surface?: Surface;
  readonly limits?: HostLimits;
  readonly clock?: Clock;
  readonly tools?: readonly NativeToolDefinition[];
  /** Extra pre-call hooks, run before the permission gate. */
  readonly hooks?: readonly PreCallHook[];
  readonly clientInfo?: { name: string; version: string };
  /**
   * Gives the values of the servers' `${input:ID}` (VS Code's `inputs`) when they start: stored ones, or asked of the
   * user. Without it, a server that uses an input fails, naming the input.
   */
  readonly inputs?: InputResolver;
  /** Rules, expiry by risk and the prompt timeout. Rules may be given as parsed rules or as plain JSON objects. */
  readonly permissions?: Omit<PermissionConfig, 'rules'> & { readonly rules?: unknown };
  /**
   * When `invoke` returns, against history's commits. `'grouped'` (default): at once, and a crash can take back at
   * most the last `HISTORY_LOSS_BOUND` of calls (128 calls, all returned within 20 ms of one another); a store that
   * falls behind holds callers back rather than let that grow. `'strict'`: only once the call's final row and its
   * audit events are committed, so a crash takes back no call that returned; it costs a commit per call for a lone
   * caller.
   */
  readonly durability?: Durability;
  /** Audit anchoring: `anchorFile` (outside the data directory) gets the chain head every `anchorEveryMs`. */
  readonly audit?: AuditAnchorConfig;
  /**
   * Days results, history and audit events are kept (null: forever); given, sweeps run at start and periodically.
   * Absent, nothing is swept by itself: a library does not delete a user's data unasked (`host.retention.sweep()`
   * applies `RETENTION_DEFAULTS` when called). The products that own a data directory, the console and
   * `airlock retention`, pass the defaults when their config says nothing.
   */
  readonly retention?: RetentionConfig;
  /** Tasks: see `TasksConfig`. */
  readonly tasks?: TasksConfig;
  /**
   * OpenTelemetry spans for every tool call (`execute_tool`, with permission and elicitation children), through the
   * global tracer provider or the `tracer` given. Arguments stay off the spans unless `recordArguments` is true.
   */
  readonly telemetry?: TelemetryConfig;
  /** Sign-in to remote servers (OAuth 2.1): the token vault, the redirect URL, the client metadata document. */
  readonly auth?: HostAuthConfig;
  /**
   * MCP Apps views. `views: true` only where a surface renders them (behind a sandbox proxy): the host then declares
   * the MCP Apps extension to servers and `host.apps.view` reads views; otherwise neither. `maxViewBytes` bounds a
   * view's HTML (default 2 MiB).
   */
  readonly apps?: { readonly views?: boolean; readonly maxViewBytes?: number };
}
