import type { ElicitationAnswer } from '@airlock/core';

/**
 * Fired by `<airlock-elicitation-dialog>` with the user's answer: accept (form content typed per field; no content
 * in URL mode, where accept means "I opened the page"), decline, or cancel (Esc, the close button, dismissal). In
 * URL mode a cancel may follow an accept, when the user gives up waiting for the page; otherwise it fires once.
 */
export class ElicitationAnswerEvent extends Event {
  static readonly type = 'airlock-elicitation-answer';
  readonly answer: ElicitationAnswer;

  constructor(answer: ElicitationAnswer) {
    super(ElicitationAnswerEvent.type, { bubbles: true, composed: true });
    this.answer = answer;
  }
}

/**
 * Fired in URL mode when the user says the external page is done ("Done, retry"): the host retries the call that
 * needed it (or stops waiting for the server's completion notice). The dialog closes.
 */
export class ElicitationDoneEvent extends Event {
  static readonly type = 'airlock-elicitation-done';
  /** The host's id of the question (`ElicitationRequest.id`). */
  readonly requestId: string;

  constructor(requestId: string) {
    super(ElicitationDoneEvent.type, { bubbles: true, composed: true });
    this.requestId = requestId;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-elicitation-answer': ElicitationAnswerEvent;
    'airlock-elicitation-done': ElicitationDoneEvent;
  }
}
