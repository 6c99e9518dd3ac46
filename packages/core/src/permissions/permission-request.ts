import type { Icon, ToolAnnotations } from '@modelcontextprotocol/client';
import type { Caller } from '../caller.js';
import type { Scope } from '../scope.js';
import type { PermissionAskReason } from './resolve-permission.js';
import type { RiskAssessment } from './risk.js';

/**
 * The grains of consent: the seed's four, and allow for this conversation (the same tool, for any arguments, without
 * asking again in the conversation of the call; another conversation of the same user still asks).
 */
export type PermissionDecision = 'allow_once' | 'allow_conversation' | 'allow_always' | 'deny_once' | 'deny_always';

export const PERMISSION_DECISIONS = [
  'allow_once',
  'allow_conversation',
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
  /** Whether the surface may offer allow for this conversation; when not, why (the engine refuses it anyway). */
  readonly allowConversation: { readonly offered: boolean; readonly reason?: string };
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
  /**
   * With `decision_expired`: which stored allow ran out (`always`, or `conversation` for an allow kept in one
   * conversation), so the prompt names the choice the user made; absent on a host that does not say.
   */
  readonly expiredGrain?: 'always' | 'conversation';
}

/** Whom the permission engine asks when no rule or stored decision settles a call (a surface is one). */
export interface PermissionAsker {
  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
}
