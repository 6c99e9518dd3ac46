// The audit events as the store keeps them; the chain that links them is audit/audit-chain.ts.

/**
 * What an audit event records: permission decisions, invocation transitions, elicitations; a user's sign-in to a
 * remote server, a refresh that failed, a sign-out (never a token: only the server, the issuer, the scopes and the
 * step); and the log's own upkeep: a checkpoint written when old events are pruned (it carries the hash of the last
 * pruned event, so the chain stays verifiable), and what a retention sweep removed.
 */
export type AuditEventType =
  | 'permission.decision'
  | 'invocation.transition'
  | 'elicitation'
  | 'auth.sign_in'
  | 'auth.refresh_failed'
  | 'auth.sign_out'
  | 'audit.checkpoint'
  | 'retention.sweep'
  /** A resource read: the server, the URI's hash, who started it and how it ended (never the contents). */
  | 'resource.read'
  /** An MCP Apps view's link the user consented to open: the view's server and tool, the host and the URL's hash. */
  | 'app.link_opened'
  /** A message an MCP Apps view sent into the conversation with the user's consent: its length and hash only. */
  | 'app.message_sent'
  /**
   * A call an MCP Apps view made that was refused before it was recorded (another server's tool, a model-only or
   * unknown one, arguments its schema refuses): the view's server, the tool named, the refusal's code.
   */
  | 'app.call_refused'
  /** An administrator switched a server off or on (`data.enabled`); the event is the host's (empty user ids). */
  | 'server.switched'
  /** A tool hidden from the model or shown again (`data.hidden`, `data.level`: user or workspace), and by whom. */
  | 'tool.switched'
  /**
   * A user kept their own API key for a model endpoint, or forgot it (`data.action`: kept or forgotten; `data.model`,
   * `data.endpoint`): never the key.
   */
  | 'model.key';

/** Every type the log keeps, for checks and filters that must know them all (a new type is a type error here). */
export const AUDIT_EVENT_TYPES: readonly AuditEventType[] = Object.keys({
  'permission.decision': true,
  'invocation.transition': true,
  elicitation: true,
  'auth.sign_in': true,
  'auth.refresh_failed': true,
  'auth.sign_out': true,
  'audit.checkpoint': true,
  'retention.sweep': true,
  'resource.read': true,
  'app.link_opened': true,
  'app.message_sent': true,
  'app.call_refused': true,
  'server.switched': true,
  'tool.switched': true,
  'model.key': true,
} satisfies Record<AuditEventType, true>) as AuditEventType[];

/** Where a permission decision came from. */
export type DecisionOrigin =
  | 'user_prompt'
  | 'cache_hit'
  | 'rule'
  | 'expired_renewal'
  | 'no_surface'
  | 'prompt_timeout'
  /** The surface threw (or rejected) while asking: no one decided; the call did not run. */
  | 'surface_error'
  /** The surface answered something that is not one of the decisions: the call did not run. */
  | 'invalid_answer'
  /** The call was cancelled while its prompt was open, so the prompt closed unanswered. */
  | 'call_cancelled'
  /** A stored allow could not be confirmed because the shared store could not be read: denied, not run. */
  | 'store_unreadable';

/** An audit event before it joins the chain. Never holds argument values: only their hash. */
export interface AuditEventInput {
  readonly type: AuditEventType;
  readonly at: number;
  readonly userId: string;
  readonly workspaceId: string;
  readonly conversationId: string | null;
  readonly serverId: string | null;
  readonly tool: string | null;
  readonly argsHash: string | null;
  readonly riskTier: string | null;
  readonly invocationId: string | null;
  /** Type-specific detail: decision and origin; from and to state and outcome; elicitation answer kind. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** An event in the chain: numbered, linked to the one before by its hash. */
export interface AuditEvent extends AuditEventInput {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}
