import { HostError } from './errors/host-error.js';

/**
 * The tenant key of everything the host stores: who (user), where (workspace) and which conversation.
 * A lookup made with another scope finds nothing.
 */
export interface Scope {
  readonly userId: string;
  readonly workspaceId: string;
  readonly conversationId: string;
}

const SCOPE_KEYS = ['userId', 'workspaceId', 'conversationId'] as const;

/** Checks that a scope has three non-empty string keys and returns a frozen copy; throws `invalid_scope` otherwise. */
export function assertScope(value: unknown): Scope {
  if (typeof value !== 'object' || value === null) {
    throw new HostError('invalid_scope', 'scope must be an object with userId, workspaceId and conversationId');
  }
  const record = value as Record<string, unknown>;
  for (const key of SCOPE_KEYS) {
    const field = record[key];
    if (typeof field !== 'string' || field.length === 0) {
      throw new HostError('invalid_scope', `scope.${key} must be a non-empty string`, { data: { field: key } });
    }
  }
  return Object.freeze({
    userId: record['userId'] as string,
    workspaceId: record['workspaceId'] as string,
    conversationId: record['conversationId'] as string,
  });
}

/** True when two scopes name the same user, workspace and conversation. */
export function sameScope(a: Scope, b: Scope): boolean {
  return a.userId === b.userId && a.workspaceId === b.workspaceId && a.conversationId === b.conversationId;
}
