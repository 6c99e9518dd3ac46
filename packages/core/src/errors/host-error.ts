/**
 * Local failures of the host, each with a stable string code a surface can branch on.
 *
 * Tool failures are not exceptions (they are outcomes of an invocation); a `HostError` means the host itself refused
 * or could not do what was asked: bad configuration, an unknown tool, arguments that fail the tool's schema, a lookup
 * from the wrong tenant. Errors that crossed the wire from a server keep their JSON-RPC code inside `data`.
 */
export class HostError extends Error {
  /** Stable machine-readable code, e.g. `config_invalid`, `tool_not_found`, `invalid_arguments`. */
  readonly code: HostErrorCode;
  /** Structured detail for surfaces (field paths, server ids, validation errors). */
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(code: HostErrorCode, message: string, options?: { data?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostError';
    this.code = code;
    if (options?.data !== undefined) this.data = options.data;
  }
}

/** Every code a `HostError` can carry. */
export type HostErrorCode =
  | 'config_invalid'
  | 'server_not_found'
  | 'server_unavailable'
  | 'tool_not_found'
  | 'tool_not_visible'
  | 'tool_name_collision'
  | 'invalid_arguments'
  | 'invalid_scope'
  // A call's options that are not what InvokeOptions takes (a modelCallId that is not a string of 1 to 256 characters).
  | 'invalid_options'
  | 'invalid_transition'
  | 'not_found'
  // A result handle whose whole text retention removed (the model and screen payloads stay in history).
  | 'result_expired'
  | 'store_error'
  // This instance was taken over by another on a shared database (its heartbeat went stale): its writes are refused.
  | 'instance_fenced'
  // A write that names the revision it replaces found a newer one (another writer's): nothing was written.
  | 'conflict'
  | 'closed'
  // A server's stream broke on a line that is not JSON-RPC; a reply passed the message cap; a remote server answered
  // HTTP 401 (it needs sign-in); an HTTP server could not be reached.
  | 'protocol_error'
  | 'result_too_large'
  | 'needs_auth'
  | 'server_unreachable'
  // A remote server needs the user to sign in (no tokens, or they can no longer be refreshed); data names the server.
  | 'auth_required'
  // A step of OAuth sign-in, refresh or sign-out failed; data names the server and the step (discovery,
  // registration, authorization, token, refresh, revocation).
  | 'auth_failed'
  // A stored credential cannot be opened: sealed with another secret key, or altered.
  | 'credential_unreadable'
  // A server's config uses an input (`${input:ID}`) that has no value and no one to ask: it does not start.
  | 'input_required'
  // Something the host does not offer: e.g. resource subscriptions on a server that declares none.
  | 'not_supported'
  // A permission rule, a stored decision or the user refused an action that is not a tool call (a resource read);
  // nothing was sent to the server. data names the server and the URI's hash.
  | 'permission_denied'
  // A tool that ran as a task ended failed or cancelled by its server; data names the server and the task.
  | 'task_failed'
  // A task the host followed (after a restart, or its server restarted) that its server no longer knows; data names
  // the server and the task.
  | 'task_lost'
  // An MCP Apps view that cannot be rendered: not the tool's own ui:// resource, the wrong MIME type, a bad CSP
  // origin; or one over the host's size bound. data names the server, the tool and the URI.
  | 'invalid_app_view'
  | 'app_view_too_large';
