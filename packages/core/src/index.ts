// @airlock/core: the MCP host runtime. Every public export is named here.
export { createHost } from './host.js';
export type { Host, HostConfig, HostLimits, HistoryEntry, ResultSlice, ServerInfo } from './host.js';
export { HostEvents } from './host-events.js';
export type { HostEventMap, HostEventName, HostListener } from './host-events.js';
export { HostError } from './errors/host-error.js';
export type { HostErrorCode } from './errors/host-error.js';
export { assertScope, sameScope } from './scope.js';
export type { Scope } from './scope.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { PERMISSION_DECISIONS } from './surface.js';
export type { PermissionDecision, PermissionRequest, Surface } from './surface.js';
export { canonicalJson, hashJson, sha256Hex } from './audit/canonical-json.js';
export { parseServersConfig, serverIdentity } from './servers/server-config.js';
export type {
  HttpServerConfig,
  ProtocolNegotiation,
  ServerConfig,
  StdioServerConfig,
} from './servers/server-config.js';
export { DEFAULT_CONNECTION_LIMITS } from './servers/server-connection.js';
export type { ConnectionLimits } from './servers/server-connection.js';
export { SERVER_TRANSITIONS } from './servers/server-state.js';
export type { ServerState } from './servers/server-state.js';
export { toolDisplayName } from './tools/tool.js';
export type { Audience, Caller, JsonSchema, Tool, ToolOrigin, ToolProgress, ToolRunContext } from './tools/tool.js';
export type { NativeToolDefinition } from './tools/tool-registry.js';
export { MAX_TOOL_NAME_LENGTH, namespacedToolName } from './tools/tool-name.js';
export { readToolUiMeta } from './tools/tool-visibility.js';
export type { ToolUiMeta } from './tools/tool-visibility.js';
export { definitionHash } from './tools/definition-hash.js';
export { visibilityRefusal } from './apps/app-policy.js';
export { INVOCATION_TRANSITIONS, isTerminalState, stateForOutcome } from './invocations/invocation-state.js';
export type { InvocationOutcome, InvocationState } from './invocations/invocation-state.js';
export { DEFAULT_TIMEOUT_LIMITS } from './invocations/invocation-pipeline.js';
export type {
  InvokeOptions,
  PreCallContext,
  PreCallHook,
  PreCallVerdict,
  TimeoutLimits,
  ToolLimits,
  ToolResult,
} from './invocations/invocation-pipeline.js';
export { boundResult, DEFAULT_BOUND_LIMITS, fitText, resultHandle } from './invocations/bound-result.js';
export type { BoundLimits, ResultSource } from './invocations/bound-result.js';
export type {
  BoundedResult,
  ModelPayload,
  ScreenBlock,
  ScreenPayload,
  Truncation,
} from './invocations/bounded-result-types.js';
export type {
  HostStore,
  InvocationError,
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from './storage/host-store.js';
export { MemoryStore } from './storage/memory-store.js';
export { SqliteStore } from './storage/sqlite-store.js';
export type { SqliteDatabase, SqliteStoreConfig } from './storage/sqlite-store-config.js';
