import { tenantMatches } from '@airlock/core';
import type { Tenant } from './kit-question-bus.js';
import { sameTenant } from './kit-question-bus.js';

/** Whose an open stream is: what the hub routes by. */
export interface Viewer {
  /**
   * The user and workspace its events are of. Read at each send, so a tenant object that changes (a session moved to
   * another workspace) moves its streams at once.
   */
  readonly tenant: Tenant;
  /** The app's session it was opened in: `sendToSession` and `closeSession` reach it by this. */
  readonly sessionId?: string;
  /** Whether its user is an administrator: only such streams hear `sendToAdmins`. */
  readonly admin?: boolean;
}

/** One open stream as the hub reaches it: its viewer, a typed send, and how to end it. */
export interface OpenStream<Events> extends Viewer {
  send<E extends keyof Events & string>(event: E, data: Events[E]): void;
  /** Ends the stream once what was sent to it has gone out. */
  close(): void;
}

/**
 * The open streams of one app, and delivery of an event to exactly the streams it is for: a tenant's, a server
 * connection's tenant's, administrators', one session's, or everyone's. Every send is typed by `Events`, the same map
 * the page reads the stream through.
 */
export class EventHub<Events> {
  readonly #streams = new Set<OpenStream<Events>>();

  /** Adds a stream; returns what removes it. */
  add(stream: OpenStream<Events>): () => void {
    this.#streams.add(stream);
    return () => this.#streams.delete(stream);
  }

  /** Sends to every stream of `tenant` (a user in a workspace), never to another's. */
  send<E extends keyof Events & string>(tenant: Tenant, event: E, data: Events[E]): void {
    for (const stream of this.#streams) if (sameTenant(stream.tenant, tenant)) stream.send(event, data);
  }

  /** Sends to the streams of the tenant of one server connection (`user:ID` or `workspace:ID`, as the host names it). */
  sendWhere<E extends keyof Events & string>(connectionTenant: string, event: E, data: Events[E]): void {
    for (const stream of this.#streams) if (tenantMatches(connectionTenant, stream.tenant)) stream.send(event, data);
  }

  /**
   * Sends to administrators' streams only: of every tenant for a shared connection (`connectionTenant` undefined),
   * else of the connection's tenant (what a server writes may hold secrets; tenants never see it).
   */
  sendToAdmins<E extends keyof Events & string>(connectionTenant: string | undefined, event: E, data: Events[E]): void {
    for (const stream of this.#streams) {
      if (stream.admin !== true) continue;
      if (connectionTenant === undefined || tenantMatches(connectionTenant, stream.tenant)) stream.send(event, data);
    }
  }

  /** Sends what is the same for every tenant (server states, the tool catalog changed). */
  broadcast<E extends keyof Events & string>(event: E, data: Events[E]): void {
    for (const stream of this.#streams) stream.send(event, data);
  }

  /** Tells every stream of a session something about the session itself (signed out, workspace switched). */
  sendToSession<E extends keyof Events & string>(sessionId: string, event: E, data: Events[E]): void {
    for (const stream of this.#streams) if (stream.sessionId === sessionId) stream.send(event, data);
  }

  /** Ends every stream of a session (signed out): nothing more of the user's reaches them. */
  closeSession(sessionId: string): void {
    for (const stream of [...this.#streams]) {
      if (stream.sessionId !== sessionId) continue;
      this.#streams.delete(stream);
      stream.close();
    }
  }

  /** Ends every stream (the app is closing). */
  closeAll(): void {
    for (const stream of [...this.#streams]) stream.close();
    this.#streams.clear();
  }

  /** The sessions that have a stream open here. */
  sessionIds(): string[] {
    return [...this.#streams].flatMap((stream) => (stream.sessionId === undefined ? [] : [stream.sessionId]));
  }

  get size(): number {
    return this.#streams.size;
  }
}
