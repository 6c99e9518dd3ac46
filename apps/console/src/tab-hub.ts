import { tenantMatches } from '@airlock/core';
import type { ConsoleEventMap, ConsoleEventName } from './console-events.js';
import type { Session } from './sessions.js';

/** One open page: its session (so a workspace switch moves it at once) and how to reach its event stream. */
export interface Tab {
  readonly session: Session;
  /** Whether the session's user is an administrator: only their tabs hear what servers write (`sendToAdmins`). */
  readonly admin?: boolean;
  send<E extends ConsoleEventName>(event: E, data: ConsoleEventMap[E]): void;
  /** Ends the tab's event stream (its session ended). */
  close(): void;
}

/** A tenant as the console's tabs see it: a user in a workspace (every conversation of it). */
export interface Tenant {
  readonly userId: string;
  readonly workspaceId: string;
}

/** One string per tenant, so lookups compare a user and a workspace at once. */
export const tenantKey = (t: Tenant): string => `${t.userId}\u0000${t.workspaceId}`;

/**
 * The open tabs, and delivery of an event to every tab of one tenant (never to another's). Every send is typed by
 * `ConsoleEventMap`, the same map the page handles events through.
 */
export class TabHub {
  readonly #tabs = new Set<Tab>();

  add(tab: Tab): () => void {
    this.#tabs.add(tab);
    return () => this.#tabs.delete(tab);
  }

  send<E extends ConsoleEventName>(tenant: Tenant, event: E, data: ConsoleEventMap[E]): void {
    for (const tab of this.#tabs) {
      if (tab.session.userId === tenant.userId && tab.session.workspaceId === tenant.workspaceId) tab.send(event, data);
    }
  }

  /** Sends to the tabs of the tenant of one server connection (`user:ID` or `workspace:ID`, as the host names it). */
  sendWhere<E extends ConsoleEventName>(connectionTenant: string, event: E, data: ConsoleEventMap[E]): void {
    for (const tab of this.#tabs) if (tenantMatches(connectionTenant, tab.session)) tab.send(event, data);
  }

  /**
   * Sends to administrators' tabs only: of every tenant for a shared connection (`connectionTenant` undefined), else
   * of the connection's tenant (what a server writes may hold secrets; tenants never see it).
   */
  sendToAdmins<E extends ConsoleEventName>(
    connectionTenant: string | undefined,
    event: E,
    data: ConsoleEventMap[E],
  ): void {
    for (const tab of this.#tabs) {
      if (tab.admin !== true) continue;
      if (connectionTenant === undefined || tenantMatches(connectionTenant, tab.session)) tab.send(event, data);
    }
  }

  /** Sends what is the same for every tenant (server states, the tool catalog changed). */
  broadcast<E extends ConsoleEventName>(event: E, data: ConsoleEventMap[E]): void {
    for (const tab of this.#tabs) tab.send(event, data);
  }

  /** Ends every stream of a session (signed out): nothing more of the user's reaches them. */
  closeSession(sessionId: string): void {
    for (const tab of [...this.#tabs]) {
      if (tab.session.id !== sessionId) continue;
      this.#tabs.delete(tab);
      tab.close();
    }
  }

  /** Tells every tab of a session something about the session itself (signed out, workspace switched). */
  sendToSession<E extends ConsoleEventName>(sessionId: string, event: E, data: ConsoleEventMap[E]): void {
    for (const tab of this.#tabs) if (tab.session.id === sessionId) tab.send(event, data);
  }

  /** The sessions that have a tab open here. */
  sessionIds(): string[] {
    return [...this.#tabs].map((tab) => tab.session.id);
  }

  get size(): number {
    return this.#tabs.size;
  }
}
