import type { Icon, ToolAnnotations } from '@modelcontextprotocol/client';
import type { RiskAssessment } from './permissions/risk.js';
import type { PermissionAskReason } from './permissions/resolve-permission.js';
import type { FormModel } from './elicitation/form-model.js';
import type { UrlInspection } from './elicitation/url-safety.js';
import type { Scope } from './scope.js';
import type { Caller } from './tools/tool.js';

/** The four grains of consent. */
export type PermissionDecision = 'allow_once' | 'allow_always' | 'deny_once' | 'deny_always';

export const PERMISSION_DECISIONS = [
  'allow_once',
  'allow_always',
  'deny_once',
  'deny_always',
] as const satisfies readonly PermissionDecision[];

/** Everything a surface shows when it asks the user whether a call may run: the tool, its server, the full arguments. */
export interface PermissionRequest {
  readonly invocationId: string;
  readonly scope: Scope;
  readonly caller: Caller;
  readonly tool: {
    readonly name: string;
    readonly displayName: string;
    readonly originalName: string;
    readonly description?: string;
    readonly annotations?: ToolAnnotations;
    readonly icons?: readonly Icon[];
  };
  readonly server: { readonly id: string; readonly trusted: boolean } | null;
  readonly args: Readonly<Record<string, unknown>>;
  readonly argsHash: string;
  /** The risk badge: tier, reasons, and whether the annotations are unverified hints of an untrusted server. */
  readonly risk: RiskAssessment;
  /** Whether the surface may offer allow always; when not, why (the engine refuses it anyway). */
  readonly allowAlways: { readonly offered: boolean; readonly reason?: string };
  /** The action that has focus when the prompt opens: allow once, or deny once for destructive tools. */
  readonly defaultAction: 'allow_once' | 'deny_once';
  /** True when a stored decision expired and the user is asked to renew it. */
  readonly renewal: boolean;
  /**
   * Why the user is asked (first time, the tool or its server changed, a decision expired, decisions still loading,
   * a rule says ask, a native tool asked each time): a surface shows it under its title. Always set on a request a
   * surface is asked; absent on the request a listener is shown for a call decided without asking.
   */
  readonly reason?: PermissionAskReason;
}

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

/**
 * Who answers the user-facing questions: a console, a CLI or a test each implement it. With no surface attached the
 * host fails closed: every permission request is denied with a reason saying no one could be asked.
 */
export interface Surface {
  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
  /**
   * Shows a server's question and resolves with the answer; `signal` aborts when the question closes without one
   * (timeout, server cancel, workspace switch). Absent: the host declares no elicitation capability at all.
   */
  elicit?(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** The modes `elicit` can answer. Default: form only. */
  readonly elicitationModes?: readonly ElicitationMode[];
  /**
   * Signs a user in to a remote server: shows them `authorizationUrl` (a popup, the system browser) and resolves with
   * the redirect URL the authorization server sent them back to (its `code`, `state` and `iss`); rejects when they
   * give up, or when `signal` aborts. Absent: sign-in cannot be offered, and servers that need it stay `needs_auth`.
   */
  authorize?(request: SignInRequest, signal: AbortSignal): Promise<URL | string>;
}

/** A sign-in the surface is asked to show: whose, to which server, where to send them, and the scopes asked for. */
export interface SignInRequest {
  /** The user signing in (and the tab or conversation they asked from). */
  readonly user: Scope;
  readonly serverId: string;
  readonly authorizationUrl: URL;
  /** The OAuth scopes asked for, space-separated, when any. */
  readonly scope?: string;
}
