/** How much a call can hurt: what the badge shows and what sets a stored decision's expiry. */
export type RiskTier = 'low' | 'medium' | 'high';

/**
 * A remembered answer: allow always or deny always, for one tenant, server identity and tool; or allow for one
 * conversation of the tenant (`conversationId`).
 */
export interface StoredDecision {
  readonly id: string;
  readonly userId: string;
  readonly workspaceId: string;
  /** The configured server id, for display and "revoke all for a server". */
  readonly serverId: string;
  /** The server's identity (`serverIdentity`: its command line or URL, env or headers, trust): a changed server is another. */
  readonly serverIdentity: string;
  /** The tool's own name on its server. */
  readonly tool: string;
  /** Set when the decision holds for these exact arguments only (sha256 of their canonical JSON). */
  readonly argsHash: string | null;
  /**
   * Set when the decision holds in this conversation of the tenant only (allow for this conversation); absent, it
   * holds in every conversation.
   */
  readonly conversationId?: string;
  /** The tool definition the user saw when deciding: a changed tool asks again. */
  readonly definitionHash: string;
  readonly effect: 'allow' | 'deny';
  readonly riskTier: RiskTier;
  readonly grantedAt: number;
  /** Null: never expires. */
  readonly expiresAt: number | null;
  readonly grantedBy: string;
}

/**
 * The lookup key of a decision: tenant, server identity, tool, the arguments' hash when per-arguments, and the
 * conversation when it holds in one only (see `conversationKeySuffix`).
 */
export function decisionKey(
  d: Pick<StoredDecision, 'userId' | 'workspaceId' | 'serverIdentity' | 'tool' | 'argsHash' | 'conversationId'>,
): string {
  const prefix = decisionKeyPrefix(d.userId, d.workspaceId, d.serverIdentity, d.tool) + (d.argsHash ?? '');
  return d.conversationId === undefined ? prefix : prefix + conversationKeySuffix(d.conversationId);
}

/**
 * What follows a per-tool key for a decision that holds in one conversation. It starts with a NUL, which no
 * arguments' hash holds, so a conversation's key never meets a per-arguments one.
 */
export function conversationKeySuffix(conversationId: string): string {
  return `\u0000${conversationId}`;
}

/** The key of a decision for any arguments; a per-arguments key is this followed by the arguments' hash. */
export function decisionKeyPrefix(userId: string, workspaceId: string, serverIdentity: string, tool: string): string {
  return `${userId}\u0000${workspaceId}\u0000${serverIdentity}\u0000${tool}\u0000`;
}
