import type { HostEventName, HostListener } from '../events/host-events.js';
import type { InvokeOptions, ToolResult } from '../invocations/invoke-options.js';
import type { PreCallHook } from '../invocations/pre-call-chain.js';
import type { HostAppsApi } from './apps-api.js';
import type { HostAuditApi } from './audit-api.js';
import type { HostAuthApi } from './auth-api.js';
import type { HostElicitationsApi } from './elicitations-api.js';
import type { HostHistoryApi, HostResultsApi } from './history-api.js';
import type { HostPermissionsApi } from './permissions-api.js';
import type { HostPromptsApi, HostResourcesApi } from './resources-api.js';
import type { HostRetentionApi } from './retention-api.js';
import type { HostServersApi } from './servers-api.js';
import type { HostTasksApi } from './tasks-api.js';
import type { HostToolsApi } from './tools-api.js';

/** The one object an application holds: a facade per concern, each in its own file beside this one. */
export interface Host {
  readonly servers: HostServersApi;
  readonly tools: HostToolsApi;
  /**
   * Makes one call through the one path. Every fault a caller or the model can cause is an outcome of the result
   * (`tool_not_found`, `invalid_arguments`, `permission_denied`, a failure, a timeout), so the model can act on it;
   * it rejects only for a programmer's error (`invalid_scope`, `closed`) or a history that stopped taking writes.
   */
  invoke(options: InvokeOptions): Promise<ToolResult>;
  readonly history: HostHistoryApi;
  readonly results: HostResultsApi;
  readonly permissions: HostPermissionsApi;
  readonly auth: HostAuthApi;
  readonly resources: HostResourcesApi;
  readonly prompts: HostPromptsApi;
  readonly apps: HostAppsApi;
  readonly audit: HostAuditApi;
  readonly retention: HostRetentionApi;
  readonly elicitations: HostElicitationsApi;
  /** Calls that run as tasks: open ones per tenant (resumed after a restart), a handle, cancel by id. */
  readonly tasks: HostTasksApi;
  /** Adds a pre-call hook that runs before the permission gate; returns its removal. */
  addHook(hook: PreCallHook): () => void;
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void;
  close(): Promise<void>;
  /** `close()`, for `await using host = createHost(…)`: the host closes when the block ends, thrown or not. */
  [Symbol.asyncDispose](): Promise<void>;
}
