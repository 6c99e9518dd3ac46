// @airlock/core: the MCP host runtime. Every public export is named here, and test/core-exports.test.ts holds the
// list, so a new public name is a reviewed change. The entry runs on Node (connections spawn stdio servers; the store
// of kept reads, the token vault and the audit anchor use node:crypto, node:fs and async_hooks); a browser takes its
// types only. Store adapters have subpaths of their own: '@airlock/core/sqlite', '@airlock/core/worker',
// '@airlock/core/postgres'; test doubles and the store contract are '@airlock/core/testing'.
export { createHost } from './host/create-host.js';
export type { Host } from './host/host.js';
export type { HostConfig, HostLimits } from './host/host-config.js';
export type { ServerInfo } from './servers/server-info.js';
export type { ServerAbout } from './servers/server-info.js';
export type { ServerLogLine } from './servers/server-log.js';
export type { HostAppsApi } from './host/apps-api.js';
export type { HostAuditApi } from './host/audit-api.js';
export type { HostElicitationsApi } from './host/elicitations-api.js';
export type { HostHistoryApi, HostResultsApi } from './host/history-api.js';
export type { HostPermissionsApi } from './host/permissions-api.js';
export type { HostPromptsApi, HostResourcesApi } from './host/resources-api.js';
export type { HostRetentionApi } from './host/retention-api.js';
export type { HostServersApi } from './host/servers-api.js';
export type { HostToolsApi, ToolHideOptions } from './host/tools-api.js';
export { createReadinessProbe } from './host/readiness-probe.js';
export type { NotReadyReason, Readiness, ReadinessProbeOptions } from './host/readiness-probe.js';
export type { ToolSwitch, ToolSwitchLevel } from './switches/tool-switches.js';
export type { SwitchKey, SwitchLevel, SwitchRecord } from './store/switches.js';
export type { KeptReadRecord } from './store/kept-read.js';
export { CONVERSATION_CONTENTS_MAX, CONVERSATION_TITLE_MAX } from './store/conversation-record.js';
export type { ConversationRecord, ConversationSummary } from './store/conversation-record.js';
export type {
  ViewConsentDecision,
  ViewConsentFilter,
  ViewConsentKey,
  ViewConsentRecord,
} from './store/view-consent-record.js';
export type { TelemetryConfig } from './telemetry/tool-spans.js';
export { LOG_REDACT_PATHS, logHostEvents } from './telemetry/host-log.js';
export type { LogSink } from './telemetry/host-log.js';
export { DEFAULT_RESULT_SLICE_CHARS } from './history/history-reader.js';
export type { HistoryEntry, ResultSlice } from './history/history-reader.js';
export { HISTORY_LOSS_BOUND } from './history/history-writer.js';
export type { Durability } from './history/history-writer.js';
export type { HostEventMap, HostEventName, HostListener } from './events/host-events.js';
export { HostError } from './errors/host-error.js';
export type { HostErrorCode } from './errors/host-error.js';
export { assertScope, sameScope } from './scope.js';
export type { Scope } from './scope.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { PERMISSION_DECISIONS } from './permissions/permission-request.js';
export type { Surface } from './host/surface.js';
export type { SignInRequest } from './auth/sign-in-request.js';
export type { ElicitationAnswer, ElicitationMode, ElicitationRequest } from './elicitation/elicitation-request.js';
export type { PermissionDecision, PermissionRequest } from './permissions/permission-request.js';
export type { HostAuthConfig } from './auth/host-auth.js';
export type { HostAuthApi } from './host/auth-api.js';
export type { ElicitationEnd } from './elicitation/elicitation-broker.js';
export type { CallInFlight } from './invocations/call-in-flight.js';
export { buildFormModel, initialValues } from './elicitation/form-model.js';
export { parseFieldInput, validateFormAnswer } from './elicitation/form-validation.js';
export type { FormField } from './elicitation/form-field.js';
export type { FormModel } from './elicitation/form-model.js';
export { inspectUrl } from './elicitation/url-safety.js';
export type { UrlInspection, UrlWarning } from './elicitation/url-safety.js';
export { ELICITATION_REASON_META_KEY, ELICITATION_TIMEOUT_META_KEY } from './elicitation/question-timeout.js';
export { canonicalJson, hashJson, sha256Hex } from './audit/canonical-json.js';
export { isolationOf, parseServersConfig, processVariables, serverIdentity } from './servers/server-config.js';
export type { ServersConfigOptions } from './servers/server-config.js';
export type { ConfigInput, InputRequest, InputResolver } from './config/config-inputs.js';
export type { ConfigVariables } from './config/config-variables.js';
export type { HttpTransportKind } from './config/server-entry-checks.js';
export { serverSlug } from './config/server-slug.js';
export { FOLDER_CONFIG_FILE, findConfigFile, userConfigPath } from './config/config-sources.js';
export { parseJsoncValue } from './config/jsonc-value.js';
export type { FoundConfig } from './config/config-sources.js';
export { StoredInputs } from './auth/stored-inputs.js';
export type { StoredInputKey } from './auth/stored-inputs.js';
export { DEFAULT_TENANT_LIMITS, tenantMatches } from './servers/server-pool.js';
export type { TenantConnectionLimits } from './servers/server-pool.js';
export { readConfigFile, readConfigText } from './host/config-file.js';
export type { ConfigFile, ReadConfigOptions } from './host/config-file.js';
export { defaultStorePath } from './config/default-store-path.js';
export type {
  HttpServerConfig,
  ProtocolNegotiation,
  ServerConfig,
  ServerIsolation,
  StdioServerConfig,
} from './servers/server-config.js';
export type { ServerOAuthConfig } from './servers/server-oauth-config.js';
export { DEFAULT_CONNECTION_LIMITS } from './servers/connection-limits.js';
export type { ConnectionLimits } from './servers/connection-limits.js';
export { SERVER_TRANSITIONS } from './servers/server-state.js';
export type { ServerState } from './servers/server-state.js';
export { toolDisplayName } from './tools/tool.js';
export type { JsonSchema, Tool, ToolOrigin, ToolProgress, ToolRunContext } from './tools/tool.js';
export type { DefinitionCut } from './tools/definition-bounds.js';
export type { Audience, Caller } from './caller.js';
export type { NativeToolDefinition } from './tools/tool-registry.js';
export { MAX_TOOL_NAME_LENGTH, namespacedToolName } from './tools/tool-name.js';
export { readToolUiMeta } from './tools/tool-ui-meta.js';
export type { ToolUiMeta } from './tools/tool-ui-meta.js';
export { definitionHash } from './tools/definition-hash.js';
export { INVOCATION_TRANSITIONS, isTerminalState } from './store/invocation-state.js';
export type { InvocationOutcome, InvocationState } from './store/invocation-state.js';
export { DEFAULT_TIMEOUT_LIMITS } from './invocations/run-with-timeouts.js';
export type { ToolLimits } from './invocations/invocation-pipeline.js';
export type { TimeoutLimits } from './invocations/run-with-timeouts.js';
export type { PreCallContext, PreCallHook, PreCallVerdict } from './invocations/pre-call-chain.js';
export type { InvokeOptions, ToolResult } from './invocations/invoke-options.js';
export type { CallApproval } from './invocations/call-approval.js';
export { boundResult, DEFAULT_BOUND_LIMITS, resultHandle } from './invocations/bound-result.js';
export type { BoundLimits, ResultSource } from './invocations/bound-result.js';
export { safeInlineBinary } from './resources/bound-resource.js';
export type { BoundedRead, ResourceScreenContent } from './resources/bound-resource.js';
export type { BoundedPrompt, PromptScreenContent } from './resources/bound-prompt.js';
export { expandTemplate } from './resources/expand-template.js';
export { DEFAULT_KEPT_READS } from './resources/kept-reads.js';
export type { WholeRead } from './resources/kept-reads.js';
export type {
  CompleteOptions,
  CompletionRef,
  Completions,
  FromServer,
  GetPromptOptions,
  ListedPrompt,
  ListedResource,
  ListedTemplate,
  Listing,
  PromptMessages,
  ReadCaller,
  ReadResourceOptions,
  ResourceRead,
} from './resources/resource-types.js';
export type { AppView, AppViewCsp, AppViewPermission } from './apps/app-view.js';
export { APP_EXTENSION_ID, APP_VIEW_MIME_TYPE, DEFAULT_APP_VIEW_MAX_BYTES } from './apps/app-view.js';
export type {
  BoundedResult,
  ModelPayload,
  ScreenBlock,
  ScreenPayload,
  Truncation,
} from './store/bounded-result-types.js';
export type { AuditQuery, DecisionKeyFields, DecisionTenant, HostStore, StoreWrite } from './store/host-store.js';
export type {
  InvocationError,
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from './store/invocation-record.js';
export type { InvocationTask, OpenTaskFilter } from './store/invocation-task.js';
export type { TaskSnapshot, TaskUpdate } from './tools/tool-task.js';
export type { TaskEra, TaskStatus } from './store/invocation-task.js';
export type { HostTasksApi } from './host/tasks-api.js';
export { MemoryStore } from './storage/memory/memory-store.js';
export type {
  AuditAnchorConfig,
  AuditExportFormat,
  AuditLogVerification,
  AuditQueryOptions,
  PruneReport,
} from './audit/audit-log.js';
export { readAnchors } from './audit/audit-anchor.js';
export type { AuditAnchor } from './audit/audit-anchor.js';
export type { CheckpointData } from './audit/audit-checkpoint.js';
export { RETENTION_DEFAULTS } from './retention/retention-config.js';
export type { ResolvedRetention, RetentionConfig, RetentionWindows } from './retention/retention-config.js';
export type { RetentionReport } from './retention/retention-sweep.js';
export type { RetentionCandidate, RetentionQuery } from './store/host-store.js';
export { GENESIS_HASH, verifyChain } from './audit/audit-chain.js';
export type { AuditVerification } from './audit/audit-chain.js';
export type { AuditEvent, AuditEventInput, AuditEventType, DecisionOrigin } from './store/audit-record.js';
export { AUDIT_EVENT_TYPES } from './store/audit-record.js';
export { DEFAULT_EXPIRY_DAYS } from './permissions/permission-config.js';
export type { ExpiryDays, PermissionConfig } from './permissions/permission-config.js';
export type { PermissionExplanation } from './permissions/explain-permission.js';
export type { PermissionAskReason } from './permissions/resolve-permission.js';
export { parseRules, parseRulesText, unmatchableRules } from './permissions/permission-rules.js';
export type { PermissionRule, RuleEffect, RuleLayer, RuleVerdict } from './permissions/permission-rules.js';
export { deriveRisk, SERVER_RISK_META_KEY } from './permissions/risk.js';
export type { RiskAssessment, RiskRater } from './permissions/risk.js';
export type { RiskTier } from './store/decision-record.js';
export type { StoredDecision } from './store/decision-record.js';
export { formatMessage, LOCALES, MESSAGES } from './i18n/messages.js';
export type { Locale, MessageKey } from './i18n/messages.js';
// OAuth 2.1 for remote servers (auth/): the SDK's OAuthClientProvider per user and server, tokens sealed at rest.
export { TokenVault, SECRET_KEY_ENV } from './auth/token-vault.js';
export type { TokenVaultOptions } from './auth/token-vault.js';
export { UserOAuthProvider } from './auth/user-oauth-provider.js';
export type { UserOAuthProviderOptions } from './auth/user-oauth-provider.js';
export { signIn } from './auth/oauth-sign-in.js';
export type { AuthChallenge, SignInOptions, SignInResult } from './auth/oauth-sign-in.js';
export { authStatus, signOut } from './auth/oauth-sign-out.js';
export type { AuthStatus, SignOutResult } from './auth/oauth-sign-out.js';
export { isAuthRequired } from './auth/auth-errors.js';
export type { AuthStep } from './auth/auth-errors.js';
export { httpsOnlyFetch, isLoopbackHost } from './auth/https-only-fetch.js';
export type { Authorize, AuthorizeRequest, OAuthClientConfig } from './auth/oauth-client-config.js';
export type {
  CredentialFilter,
  CredentialKey,
  CredentialKind,
  CredentialMatch,
  CredentialRecord,
} from './store/credentials.js';
