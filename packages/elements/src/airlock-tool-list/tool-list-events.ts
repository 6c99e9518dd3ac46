/** What `airlock-decision-revoke` carries: the stored decision to forget, and the tool it is about. */
export interface DecisionRevokeDetail {
  /** The `StoredDecision.id`: what `host.permissions.revoke({ scope, id })` takes. */
  readonly decisionId: string;
  /** The host's name of the tool (namespaced for MCP tools), for the host's own bookkeeping and messages. */
  readonly tool: string;
}

/**
 * `airlock-decision-revoke`: the user pressed Revoke on a tool's stored decision. The list does not change itself;
 * the host revokes the decision and hands the list its new entries.
 */
export class DecisionRevokeEvent extends Event {
  static readonly eventName = 'airlock-decision-revoke';
  readonly detail: DecisionRevokeDetail;

  constructor(detail: DecisionRevokeDetail) {
    super(DecisionRevokeEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-decision-revoke': DecisionRevokeEvent;
  }
}
