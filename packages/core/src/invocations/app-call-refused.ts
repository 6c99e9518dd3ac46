import { auditEvent } from '../audit/audit-event-builder.js';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import type { StoreWrite } from '../store/host-store.js';
import type { CallRefusal } from './admit-call.js';
import type { InvokeOptions } from './invoke-options.js';

/**
 * The audit write for a view's call refused before it was recorded (`app.call_refused`): the view's server, the tool
 * it named and why it was refused. A refused call leaves no invocation behind, so without this a view could probe
 * other servers' tools unseen.
 */
export function appCallRefused(scope: Scope, call: InvokeOptions, refusal: CallRefusal, clock: Clock): StoreWrite {
  return {
    kind: 'audit',
    audit: auditEvent({
      type: 'app.call_refused',
      at: clock.now(),
      scope,
      serverId: call.caller.kind === 'app' ? call.caller.serverId : null,
      tool: call.tool,
      data: { outcome: refusal.outcome, code: refusal.error.code, message: refusal.error.message },
    }),
  };
}
