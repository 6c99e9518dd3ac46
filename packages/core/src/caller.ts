// Who a call is for is the scope; who makes it is the caller. Every folder speaks of both.

/** Who may see and call a tool: the model, an MCP App view, or the person using the host. */
export type Audience = 'model' | 'app' | 'user';

/** Who makes a call. An app caller is a view rendered from one server connection and may call only that server. */
export type Caller =
  { readonly kind: 'model' } | { readonly kind: 'user' } | { readonly kind: 'app'; readonly serverId: string };
