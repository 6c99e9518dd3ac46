import type { JSONRPCErrorResponse, JSONRPCRequest, JSONRPCResultResponse } from '@modelcontextprotocol/client';

/** What a request sent directly (past the client's request bookkeeping) is told by its transport. */
export interface DirectHandlers {
  /** Its answer: a result, or an error response (one the transport made for a reply over its cap included). */
  answer(message: JSONRPCResultResponse | JSONRPCErrorResponse): void;
  /** A progress notification whose token is the request's id, its params without the token. */
  progress(params: Readonly<Record<string, unknown>>): void;
  /** The transport closed before the answer came. */
  closed(): void;
}

/**
 * A transport that sends a request whose answer and progress come back to the sender instead of the client
 * (`StdioTransport`). Its ids are strings the client's own numeric ids never equal.
 */
export interface DirectTransport {
  /** Sends the request `build` makes for the id it is given; `sent` settles once written (rejects when not). */
  sendDirect(
    build: (id: string) => JSONRPCRequest,
    handlers: DirectHandlers,
  ): { readonly id: string; sent: Promise<void> };
  /** Stops waiting for a request's answer and tells the server (`notifications/cancelled`). */
  cancelDirect(id: string, reason: string): void;
}

/** True for a transport that can send requests directly. */
export function isDirectTransport(transport: unknown): transport is DirectTransport {
  return (
    typeof transport === 'object' &&
    transport !== null &&
    typeof (transport as Partial<DirectTransport>).sendDirect === 'function' &&
    typeof (transport as Partial<DirectTransport>).cancelDirect === 'function'
  );
}

interface Slot {
  readonly id: string;
  readonly handlers: DirectHandlers;
}

/**
 * The requests a transport sent directly and that wait for their answer, found by id. They sit in the slots of an
 * array, a freed slot taken by the next request, and an id names its slot (`a<slot>.<count>`): a lookup reads the
 * slot and compares the id. A Map would take a set and a delete per call, whose rebuilt tables keep the handlers (and
 * the calls they close over) alive through young collections (see invocations/in-flight-list.ts).
 */
export class DirectRequests {
  readonly #slots: (Slot | undefined)[] = [];
  readonly #free: number[] = [];
  #count = 0;

  /** Keeps a request's handlers; returns its id. */
  open(handlers: DirectHandlers): string {
    const slot = this.#free.pop() ?? this.#slots.length;
    const id = `a${slot}.${this.#count++}`;
    this.#slots[slot] = { id, handlers };
    return id;
  }

  /** The handlers of a request still waiting, by its id (a progress token); undefined for any other value. */
  find(id: unknown): DirectHandlers | undefined {
    const slot = slotOf(id);
    const held = slot === undefined ? undefined : this.#slots[slot];
    return held !== undefined && held.id === id ? held.handlers : undefined;
  }

  /** Like `find`, and the request stops waiting (its answer came, or it was cancelled). */
  take(id: unknown): DirectHandlers | undefined {
    const slot = slotOf(id);
    if (slot === undefined) return undefined;
    const held = this.#slots[slot];
    if (held === undefined || held.id !== id) return undefined;
    this.#slots[slot] = undefined;
    this.#free.push(slot);
    return held.handlers;
  }

  /** Every request still waiting, each taken (the transport closed). */
  takeAll(): DirectHandlers[] {
    const all: DirectHandlers[] = [];
    for (const held of this.#slots) if (held !== undefined) all.push(held.handlers);
    this.#slots.length = 0;
    this.#free.length = 0;
    return all;
  }
}

/** The slot an id of `open` names, or undefined for a value that is no such id. */
function slotOf(id: unknown): number | undefined {
  if (typeof id !== 'string' || id.charCodeAt(0) !== 97 /* a */) return undefined;
  const dot = id.indexOf('.');
  if (dot < 2) return undefined;
  const slot = Number(id.slice(1, dot));
  return Number.isSafeInteger(slot) && slot >= 0 ? slot : undefined;
}
