import { auditEvent } from '../audit/audit-event-builder.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { Clock } from '../clock.js';

/** What an auth audit event is about: the user, the server, the time. */
interface AuthAuditSubject {
  readonly serverId: string;
  readonly userId: string;
  readonly clock: Clock;
  readonly options: { readonly workspaceId?: string };
}

/**
 * An audit event of a sign-in, a failed refresh or a sign-out. `data` holds what happened (issuer, scopes, grant,
 * step, reason): never a token, a code, a verifier or a secret.
 */
export function authAudit(
  subject: AuthAuditSubject,
  type: 'auth.sign_in' | 'auth.refresh_failed' | 'auth.sign_out',
  data: Readonly<Record<string, unknown>>,
): AuditEventInput {
  return auditEvent({
    type,
    at: subject.clock.now(),
    scope: { userId: subject.userId, workspaceId: subject.options.workspaceId ?? '' },
    serverId: subject.serverId,
    data,
  });
}
