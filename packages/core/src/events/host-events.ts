import type { InvocationState } from '../store/invocation-state.js';
import type { ServerEventMap } from '../servers/server-events.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { ScreenPayload } from '../store/bounded-result-types.js';
import type { ToolProgress } from '../tools/tool.js';
import type { DecisionOrigin } from '../store/audit-record.js';
import type { ElicitationAnswer, ElicitationRequest } from '../elicitation/elicitation-request.js';
import type { PermissionDecision, PermissionRequest } from '../permissions/permission-request.js';
import type { ElicitationEnd } from '../elicitation/elicitation-broker.js';
import type { Scope } from '../scope.js';

/**
 * Every event the host emits, by name: the servers' own (`ServerEventMap`) and the calls', decisions' and questions'.
 * A surface rebuilds a card from `invocation.transition` events alone.
 */
export interface HostEventMap extends ServerEventMap {
  /** One per state change, after the change is stored. `from` is null for the first (pending). */
  'invocation.transition': {
    readonly invocation: InvocationRecord;
    readonly from: InvocationState | null;
    /** On the move to a final state with a result: the screen payload, so a surface need not read it back. */
    readonly screen?: ScreenPayload;
  };
  'invocation.progress': { readonly invocation: InvocationRecord; readonly progress: ToolProgress };
  /** A call's task handle as just stored: its status or message changed (host.tasks). */
  'task.updated': { readonly task: InvocationTask };
  /** The surface is being asked; a surface can show "checking permissions…" until it answers. */
  'permission.requested': { readonly request: PermissionRequest };
  /** Every decision, whatever decided it (user prompt, stored decision, rule, no surface, prompt timeout). */
  'permission.decided': {
    readonly request: PermissionRequest;
    readonly decision: PermissionDecision | 'allow' | 'deny';
    readonly origin: DecisionOrigin;
    /**
     * The warning that the surface answered allow always for a tool it is refused for (native, or effectively
     * destructive): the call ran once (`decision` is allow_once) and nothing was stored.
     */
    readonly allowAlwaysRefused?: true;
    /** The app's own approval flow that answered instead of the surface (`InvokeOptions.approval.by`). */
    readonly by?: string;
  };
  /** A server asked the user something; it is the surface's to show (or a console tab's to answer). */
  'elicitation.requested': { readonly request: ElicitationRequest };
  'elicitation.closed': {
    readonly request: ElicitationRequest;
    readonly action: ElicitationAnswer['action'];
    readonly end: ElicitationEnd;
  };
  /** A URL flow the user opened has finished (the server said so). */
  'elicitation.completed': { readonly scope: Scope; readonly serverId: string; readonly elicitationId: string };
  /** A permission rule that can never match. */
  'permission.rule_warning': { readonly message: string };
  /** A history write failed; new calls are refused until the host is restarted. */
  'store.error': { readonly message: string };
}

export type HostEventName = keyof HostEventMap;
export type HostListener<E extends HostEventName> = (event: HostEventMap[E]) => void;

/**
 * A small typed emitter. A listener that throws is reported to `onListenerError` and never breaks the call path or
 * the other listeners.
 */
export class HostEvents {
  readonly #listeners = new Map<HostEventName, Set<(event: never) => void>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void {
    let set = this.#listeners.get(name);
    if (set === undefined) this.#listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** True when someone listens: an event whose payload costs something to build is built only then. */
  listening(name: HostEventName): boolean {
    const set = this.#listeners.get(name);
    return set !== undefined && set.size > 0;
  }

  emit<E extends HostEventName>(name: E, event: HostEventMap[E]): void {
    const set = this.#listeners.get(name);
    if (set === undefined) return;
    for (const listener of set) {
      try {
        (listener as HostListener<E>)(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
