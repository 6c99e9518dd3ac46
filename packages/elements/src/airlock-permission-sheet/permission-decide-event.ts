import type { PermissionDecision } from '@airlock/core';

/**
 * Fired by `<airlock-permission-sheet>` when the user picks one of the grains, closes the sheet or presses Esc
 * (both mean `deny_once`). Fires at most once per `show()`; the sheet closes itself right after.
 */
export class PermissionDecideEvent extends Event {
  static readonly type = 'airlock-permission-decide';
  readonly decision: PermissionDecision;

  constructor(decision: PermissionDecision) {
    super(PermissionDecideEvent.type, { bubbles: true, composed: true });
    this.decision = decision;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-permission-decide': PermissionDecideEvent;
  }
}
