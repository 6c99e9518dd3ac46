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
 * (`StdioTransport`). Its ids are negative integers, which the client's own ids never are.
 */
export interface DirectTransport {
  /**
   * Sends the request `build` makes for the id it is given; `sent` settles once written (rejects when not). Undefined
   * when the transport cannot take another direct request now: the caller sends it through the client instead.
   */
  sendDirect(
    build: (id: number) => JSONRPCRequest,
    handlers: DirectHandlers,
  ): { readonly id: number; readonly sent: Promise<void> } | undefined;
  /** Stops waiting for a request's answer and tells the server (`notifications/cancelled`). */
  cancelDirect(id: number, reason: string): void;
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
  readonly id: number;
  readonly slot: number;
  readonly handlers: DirectHandlers;
}

/** What a cancelled request is told: nothing. */
const QUIET: DirectHandlers = { answer: () => undefined, progress: () => undefined, closed: () => undefined };

/** How many direct requests may wait at once: an id keeps its slot in its low part. */
const SLOTS = 65_536;

/**
 * Requests counted before the count starts again at 0, so that every id stays a safe integer (2^36 * 2^16 = 2^52):
 * without it, ids would pass 2^53 after about 1.4e11 requests on one transport (some 40 days at 40k calls a second)
 * and no answer would find its request again. An old id equals a new one only if its slot was taken again exactly
 * 2^36 times in between while its answer never came.
 */
const COUNTS = 2 ** 36;

/**
 * The requests a transport sent directly and that wait for their answer, found by id. Ids are negative integers,
 * which the client's own ids (counting up from 0) never are, so a server that expects numeric ids keeps working; an
 * id names its slot (`-(count * 65536 + slot) - 1`) and a lookup reads that slot and compares the whole id, so the
 * late answer of a request whose slot was taken again finds nothing. The slots are an array, a freed slot taken by
 * the next request: a Map would take a set and a delete per call, whose rebuilt tables keep the handlers (and the
 * calls they close over) alive through young collections (see invocations/in-flight-list.ts).
 */
export class DirectRequests {
  readonly #slots: (Slot | undefined)[] = [];
  readonly #free: number[] = [];
  #count: number;

  /** `count` is where the ids' count starts (a test starts it near the wrap). */
  constructor(count = 0) {
    this.#count = count % COUNTS;
  }

  /** Keeps a request's handlers; returns its id, or undefined when 65,536 wait already (send it another way). */
  open(handlers: DirectHandlers): number | undefined {
    const slot = this.#free.pop() ?? (this.#slots.length < SLOTS ? this.#slots.length : undefined);
    if (slot === undefined) return undefined;
    const id = -(this.#count * SLOTS + slot) - 1;
    this.#count = (this.#count + 1) % COUNTS;
    this.#slots[slot] = { id, slot, handlers };
    return id;
  }

  /** The handlers of a request still waiting, by its id (a progress token); undefined for any other value. */
  find(id: unknown): DirectHandlers | undefined {
    const handlers = this.#held(id)?.handlers;
    // A cancelled request's progress is the client's to report, as the SDK forgets a cancelled request's progress.
    return handlers === QUIET ? undefined : handlers;
  }

  /** Like `find`, and the request stops waiting (its answer came, or it was cancelled). */
  take(id: unknown): DirectHandlers | undefined {
    const held = this.#held(id);
    if (held === undefined) return undefined;
    this.#slots[held.slot] = undefined;
    this.#free.push(held.slot);
    return held.handlers;
  }

  /** Keeps a waiting request's slot but drops what it would be told (a cancelled request, until `take`). */
  quiet(id: unknown): boolean {
    const held = this.#held(id);
    if (held !== undefined) this.#slots[held.slot] = { ...held, handlers: QUIET };
    return held !== undefined;
  }

  /** The request waiting under `id`; undefined when none does (another value, or its slot taken again since). */
  #held(id: unknown): Slot | undefined {
    const slot = slotOf(id);
    const held = slot === undefined ? undefined : this.#slots[slot];
    return held !== undefined && held.id === id ? held : undefined;
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
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id >= 0) return undefined;
  return (-id - 1) % SLOTS;
}
