import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import type { ElicitationRequest } from '../elicitation/elicitation-request.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';

/** `host.elicitations`: servers' open questions per tenant, and the user's answers. */
export interface HostElicitationsApi {
  /** The tenant's open questions from servers, oldest first. */
  pending(options: { scope: Scope }): ElicitationRequest[];
  /** Answers an open question (accept with content, decline, cancel); a form answer is validated first. */
  respond(options: { scope: Scope; id: string; answer: unknown }): void;
  /** The user moved to `workspaceId`: their open questions elsewhere close, and their servers get cancel. */
  switchWorkspace(options: { userId: string; workspaceId: string; from?: string }): number;
  /** "Done, retry": the user says the URL flow they opened is finished (when the server does not say so itself). */
  complete(options: { scope: Scope; serverId: string; elicitationId: string }): boolean;
}

/** The `host.elicitations` object over the broker: the scope checked, then the broker's calls. */
export function hostElicitationsApi(broker: ElicitationBroker): HostElicitationsApi {
  return {
    pending: ({ scope }) => broker.pending(assertScope(scope)),
    respond: ({ scope, id, answer }) => broker.respond(assertScope(scope), id, answer),
    switchWorkspace: ({ userId, workspaceId, from }) => broker.switchWorkspace(userId, workspaceId, from),
    complete: ({ scope, serverId, elicitationId }) =>
      broker.completeByUser(assertScope(scope), serverId, elicitationId),
  };
}
