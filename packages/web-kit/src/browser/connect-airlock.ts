import type { ElicitationAnswer, ElicitationRequest, PermissionDecision, PermissionRequest } from '@airlock/core';
import type { KitCall, KitError, KitEventMap, KitEventName } from '../kit-events.js';

/** The properties of `<airlock-tool-card>` the kit sets (the elements are defined by `@airlock/elements`). */
interface CardElement extends HTMLElement {
  invocation?: KitCall['invocation'];
  tool?: KitCall['tool'];
  server?: KitCall['server'];
  result?: KitCall['screen'];
  progress?: KitEventMap['progress']['progress'];
  cancellable: boolean;
}

/** `<airlock-permission-sheet>` and `<airlock-elicitation-dialog>`: a request, shown while `open`. */
interface QuestionElement<R> extends HTMLElement {
  request: R | undefined;
  open: boolean;
}

export interface ConnectOptions {
  /** Where the server part is mounted, e.g. `/airlock` (its routes are `${url}/events` and so on). */
  readonly url: string;
  /** Where the cards go, one per call, in the order the calls started. */
  readonly cards: HTMLElement;
  /** The sheet that asks permission; one is added to the page's body when not given. */
  readonly sheet?: HTMLElement;
  /** The dialog for a server's questions; one is added to the page's body when not given. */
  readonly dialog?: HTMLElement;
  /** Told of a request the server refused (a question answered in another tab meanwhile, a lost connection). */
  readonly onError?: (error: Error) => void;
  /** The app's own events on the stream (`KitServer.send`), by name, each with its JSON data. */
  readonly events?: Readonly<Record<string, (data: unknown) => void>>;
  /** Told when the session ended (signed out): the stream is closed and does not reconnect. */
  readonly onSessionEnded?: () => void;
}

/** A live connection: `ready` once the first state is drawn; `close` ends the stream (the cards stay). */
export interface AirlockConnection {
  readonly ready: Promise<void>;
  close(): void;
}

/** The states a call ends in (`isTerminalState` of core, which this browser code does not load). */
const FINAL = new Set(['success', 'error', 'cancelled']);

/**
 * The browser part of the kit: binds `<airlock-tool-card>`, `<airlock-permission-sheet>` and
 * `<airlock-elicitation-dialog>` to the server part. Each call gets a card that follows it to its end; permission
 * questions are asked one at a time in the sheet, oldest first, and server questions in the dialog; a decision, an
 * answer or "Cancel call" goes back to the server. A question answered in another tab closes here. The stream
 * reconnects by itself (EventSource) and starts again from the server's `state`.
 */
export function connectAirlock(options: ConnectOptions): AirlockConnection {
  const doc = options.cards.ownerDocument;
  const sheet = (options.sheet ??
    doc.body.appendChild(doc.createElement('airlock-permission-sheet'))) as QuestionElement<PermissionRequest>;
  const dialog = (options.dialog ??
    doc.body.appendChild(doc.createElement('airlock-elicitation-dialog'))) as QuestionElement<ElicitationRequest>;
  const cards = new Map<string, CardElement>();
  const report = options.onError ?? ((error: Error) => console.error(error));

  const post = async (path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${options.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    if (!response.ok) {
      const refusal = (await response.json().catch(() => undefined)) as KitError | undefined;
      throw new Error(refusal?.error.message ?? `${path} answered ${response.status}`);
    }
  };

  /** One queue per element: the first request shows; the next shows when it closes. */
  const asker = <R>(element: QuestionElement<R>, idOf: (request: R) => string) => {
    let queue: R[] = [];
    const showHead = (): void => {
      const head = queue[0];
      if (head === element.request) return;
      element.request = head;
      element.open = head !== undefined;
    };
    return {
      reset(requests: readonly R[]): void {
        queue = [...requests];
        element.request = undefined;
        showHead();
      },
      add(request: R): void {
        if (!queue.some((r) => idOf(r) === idOf(request))) queue.push(request);
        showHead();
      },
      remove(id: string): void {
        queue = queue.filter((r) => idOf(r) !== id);
        showHead();
      },
      current: (): R | undefined => queue[0],
    };
  };
  const permissions = asker(sheet, (r) => r.invocationId);
  const elicitations = asker(dialog, (r) => r.id);

  const draw = (call: KitCall): void => {
    let card = cards.get(call.invocation.id);
    if (card === undefined) {
      card = doc.createElement('airlock-tool-card') as CardElement;
      card.dataset['invocationId'] = call.invocation.id;
      cards.set(call.invocation.id, card);
      options.cards.append(card);
    }
    card.invocation = call.invocation;
    if (call.tool !== undefined) card.tool = call.tool;
    if (call.server !== undefined) card.server = call.server;
    if (call.screen !== undefined) card.result = call.screen;
    card.cancellable = !FINAL.has(call.invocation.state);
  };

  sheet.addEventListener('airlock-permission-decide', (event) => {
    const request = permissions.current();
    if (request === undefined) return;
    const decision = (event as Event & { decision: PermissionDecision }).decision;
    permissions.remove(request.invocationId);
    post(`/permissions/${encodeURIComponent(request.invocationId)}`, { decision }).catch(report);
  });
  dialog.addEventListener('airlock-elicitation-answer', (event) => {
    const request = elicitations.current();
    if (request === undefined) return;
    const answer = (event as Event & { answer: ElicitationAnswer }).answer;
    post(`/elicitations/${encodeURIComponent(request.id)}`, { answer }).catch(report);
  });
  options.cards.addEventListener('airlock-tool-cancel', (event) => {
    const id = (event as CustomEvent<{ invocationId: string }>).detail.invocationId;
    post(`/calls/${encodeURIComponent(id)}/cancel`, {}).catch(report);
  });

  const source = new EventSource(`${options.url}/events`, { withCredentials: true });
  const on = <E extends KitEventName>(name: E, handle: (data: KitEventMap[E]) => void): void =>
    source.addEventListener(name, (event) =>
      handle(JSON.parse((event as MessageEvent<string>).data) as KitEventMap[E]),
    );
  let drawn!: () => void;
  const ready = new Promise<void>((resolve) => (drawn = resolve));
  on('state', (state) => {
    // Open calls get a card; an ended one only updates a card this page has (its call ended while the stream was
    // down), so a fresh page does not fill with past calls.
    for (const call of state.calls) if (!FINAL.has(call.invocation.state) || cards.has(call.invocation.id)) draw(call);
    permissions.reset(state.permissions);
    elicitations.reset(state.elicitations);
    drawn();
  });
  on('call', draw);
  on('progress', ({ invocationId, progress }) => {
    const card = cards.get(invocationId);
    if (card !== undefined) card.progress = progress;
  });
  on('permission.requested', (request) => permissions.add(request));
  on('permission.closed', ({ id }) => permissions.remove(id));
  on('elicitation.requested', (request) => elicitations.add(request));
  on('elicitation.closed', ({ id }) => elicitations.remove(id));
  on('session.ended', () => {
    source.close();
    options.onSessionEnded?.();
  });
  for (const [name, handle] of Object.entries(options.events ?? {})) {
    source.addEventListener(name, (event) => handle(JSON.parse((event as MessageEvent<string>).data)));
  }

  return { ready, close: () => source.close() };
}
