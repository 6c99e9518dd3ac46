import type { AuditEventInput, AuditEventType } from '../store/audit-record.js';

/** What an audit event is about; every field but the type, the time, the tenant and the data may be left out. */
export interface AuditEventOptions {
  readonly type: AuditEventType;
  readonly at: number;
  /** The tenant; `conversationId` is recorded when present. */
  readonly scope: { readonly userId: string; readonly workspaceId: string; readonly conversationId?: string | null };
  readonly serverId?: string | null;
  readonly tool?: string | null;
  readonly argsHash?: string | null;
  readonly riskTier?: string | null;
  readonly invocationId?: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Builds an audit event with every field present (null where it does not apply), in one place, so each event the
 * host writes has the same shape and a new field is added once. Never give it argument values: only their hash.
 */
export function auditEvent(options: AuditEventOptions): AuditEventInput {
  return {
    type: options.type,
    at: options.at,
    userId: options.scope.userId,
    workspaceId: options.scope.workspaceId,
    conversationId: options.scope.conversationId ?? null,
    serverId: options.serverId ?? null,
    tool: options.tool ?? null,
    argsHash: options.argsHash ?? null,
    riskTier: options.riskTier ?? null,
    invocationId: options.invocationId ?? null,
    data: options.data,
  };
}
