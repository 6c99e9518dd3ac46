import type { Card } from '../../src/wire.js';

/**
 * How many calls one view may have in flight; the rest wait their turn in order. A view that polls, or a hostile one
 * that fires hundreds of calls, then asks the console (and the user, when they need consent) a few at a time.
 */
export const VIEW_CALLS_IN_FLIGHT = 4;

/** Calls waiting for their card to end, by invocation id. */
const waiting = new Map<string, (card: Card) => void>();
/** The cards as the page last drew them: a call accepted after its end was drawn finds its card here. */
let latest: ReadonlyMap<string, Card> = new Map();

const ended = (card: Card | undefined): card is Card =>
  card !== undefined && ['success', 'error', 'cancelled'].includes(card.invocation.state);

/**
 * Hands each waiting call its card once the card has ended. The page calls it after every change to its cards (the
 * event stream's `invocation` events, a snapshot after a reconnect), so a view's call ends as its card does.
 */
export function settleViewCalls(cards: ReadonlyMap<string, Card>): void {
  latest = cards;
  for (const [id, resolve] of waiting) {
    const card = cards.get(id);
    if (!ended(card)) continue;
    waiting.delete(id);
    resolve(card);
  }
}

/** The ended card of an accepted call: at once when the page has it already, else when the event stream brings it. */
function endOf(invocationId: string): Promise<Card> {
  const card = latest.get(invocationId);
  if (ended(card)) return Promise.resolve(card);
  return new Promise((resolve) => waiting.set(invocationId, resolve));
}

/** One view's calls: at most `VIEW_CALLS_IN_FLIGHT` at a time, the rest queued in order. */
class ViewCallQueue {
  #inFlight = 0;
  readonly #queued: (() => void)[] = [];

  async run(accept: () => Promise<string>): Promise<Card> {
    // A call that ends hands its place to the next one queued, so the count never passes the cap.
    if (this.#inFlight >= VIEW_CALLS_IN_FLIGHT) await new Promise<void>((turn) => this.#queued.push(turn));
    else this.#inFlight++;
    try {
      return await endOf(await accept());
    } finally {
      const next = this.#queued.shift();
      if (next === undefined) this.#inFlight--;
      else next();
    }
  }
}

const queues = new WeakMap<object, ViewCallQueue>();

/**
 * Makes a view's call: `accept` sends it (the console answers 202 with the invocation id once it has recorded the
 * call) and the call's card, once ended, is its result. Queued behind the view's other calls past the cap.
 */
export function callFromView(view: object, accept: () => Promise<string>): Promise<Card> {
  let queue = queues.get(view);
  if (queue === undefined) queues.set(view, (queue = new ViewCallQueue()));
  return queue.run(accept);
}
