/** How much a call can hurt: what the badge shows and what sets a stored decision's expiry. */
export type RiskTier = 'low' | 'medium' | 'high';

/** A remembered answer: allow always or deny always, for one tenant, server identity and tool. */
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
  /** The tool definition the user saw when deciding: a changed tool asks again. */
  readonly definitionHash: string;
  readonly effect: 'allow' | 'deny';
  readonly riskTier: RiskTier;
  readonly grantedAt: number;
  /** Null: never expires. */
  readonly expiresAt: number | null;
  readonly grantedBy: string;
}

/** The lookup key of a decision: tenant, server identity, tool, and the arguments' hash when per-arguments. */
export function decisionKey(
  d: Pick<StoredDecision, 'userId' | 'workspaceId' | 'serverIdentity' | 'tool' | 'argsHash'>,
): string {
  return decisionKeyPrefix(d.userId, d.workspaceId, d.serverIdentity, d.tool) + (d.argsHash ?? '');
}

/** The key of a decision for any arguments; a per-arguments key is this followed by the arguments' hash. */
export function decisionKeyPrefix(userId: string, workspaceId: string, serverIdentity: string, tool: string): string {
  return `${userId}\u0000${workspaceId}\u0000${serverIdentity}\u0000${tool}\u0000`;
}
