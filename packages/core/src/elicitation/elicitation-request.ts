import type { Scope } from '../scope.js';
import type { FormModel } from './form-model.js';
import type { UrlInspection } from './url-safety.js';

/** The two elicitation modes: a form rendered by the host, or a URL opened in the user's browser. */
export type ElicitationMode = 'form' | 'url';

/** A server's question to the user, as a surface shows it. Values a person types never go to the audit log. */
export interface ElicitationRequest {
  /** The host's id of this question (not the server's). */
  readonly id: string;
  readonly scope: Scope;
  /** The call that caused it. */
  readonly invocationId: string;
  readonly serverId: string;
  readonly tool: string;
  readonly mode: ElicitationMode;
  /** The server's message: untrusted text, shown as text. */
  readonly message: string;
  readonly createdAt: number;
  /** When the question closes on its own (a surface shows a countdown in the last 30 s). */
  readonly deadline: number;
  readonly form?: { readonly model: FormModel; readonly initialValues: Readonly<Record<string, unknown>> };
  readonly url?: UrlInspection;
  /** The server's id of a URL flow: what "done, retry" names (`host.elicitations.complete`). */
  readonly serverElicitationId?: string;
  /** Problems with the previous answer, by field, when the surface is asked again. */
  readonly errors?: Readonly<Record<string, string>>;
}

/** The user's answer. Accept carries content in form mode only. Cancel: dismissed (Esc, closed, timed out). */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline'; readonly reason?: string }
  | { readonly action: 'cancel' };

/** Whom the broker hands a server's question (a surface is one); without `elicit`, no capability is declared. */
export interface ElicitationAsker {
  /**
   * Shows a server's question and resolves with the answer; `signal` aborts when the question closes without one
   * (timeout, server cancel, workspace switch). Absent: the host declares no elicitation capability at all.
   */
  elicit?(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** The modes `elicit` can answer. Default: form only. */
  readonly elicitationModes?: readonly ElicitationMode[];
}
