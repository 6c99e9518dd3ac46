import { randomUUID } from 'node:crypto';
import { inputRequired, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  InputRequest,
  InputRequiredResult,
  Result,
} from '@modelcontextprotocol/server';
import type { ClientAsker } from './gateway-surface.js';

/** How long a finished call waits for the client's retry to collect its result before it is forgotten. */
const UNCOLLECTED_MS = 10 * 60_000;

/** What one request of a round-trip call (the first, or a retry) brings: its signal and the client's modes. */
export interface CallLeg {
  /** Aborts when the client cancels this request (closes its stream): the call is cancelled with it. */
  readonly signal: AbortSignal;
  /** The elicitation modes this request's client capabilities declare. */
  readonly modes: { readonly form: boolean; readonly url: boolean };
}

/** A question of the call to the client: sent in an input-required result, answered by the client's retry. */
interface Question {
  readonly params: ElicitRequestFormParams | ElicitRequestURLParams;
  sent: boolean;
  readonly answer: (result: ElicitResult) => void;
}

/** A call answered with a task handle (the 2026-07-28 tasks extension's `CreateTaskResult`). */
export type TaskAnswer = Result & { readonly resultType: 'task'; readonly taskId: string };

/** What a call answers with once it has an answer: the tool's result, or its task's handle. */
export type CallAnswer = CallToolResult | TaskAnswer;

type Outcome = { readonly result: CallAnswer } | { readonly error: unknown };

/**
 * One `tools/call` of a 2026-07-28 client, which the client cannot be asked about while it runs (that revision has
 * no server-to-client requests): the call runs on, and each question it asks ends the current request with an
 * input-required result whose `requestState` names this call; the client's retry carries the answers and waits for
 * the result or the next question. So a call asked about still runs once.
 */
export class RoundTripCall {
  /** The `requestState` the client echoes: a random id, good only for the owner that started the call. */
  readonly id = randomUUID();
  readonly #owner: string;
  readonly #tool: string;
  readonly #abort = new AbortController();
  readonly #questions = new Map<string, Question>();
  #asked = 0;
  #modes: CallLeg['modes'] = { form: false, url: false };
  #outcome: Outcome | undefined;
  #wake: (() => void) | undefined;
  /** Relays the call's progress to the request serving it now, if that request asked for progress. */
  progress: ((value: { progress: number; total?: number; message?: string }) => void) | undefined;
  readonly #forget: () => void;

  constructor(owner: string, tool: string, modes: CallLeg['modes'], forget: () => void) {
    this.#owner = owner;
    this.#modes = modes;
    this.#tool = tool;
    this.#forget = forget;
  }

  /** Whether a retry of `tool` by `owner` may continue this call. */
  belongsTo(owner: string, tool: string): boolean {
    return owner === this.#owner && tool === this.#tool;
  }

  /** Whether a request waits for the call now. */
  get waiting(): boolean {
    return this.#wake !== undefined;
  }

  /** Aborts when a request of the call is cancelled: the call's own signal. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The asker the call's questions go through: each waits for the client's retry. */
  readonly asker: ClientAsker = {
    modes: () => this.#modes,
    elicit: (params, signal) =>
      new Promise<ElicitResult>((resolve, reject) => {
        const key = `q${++this.#asked}`;
        const done = () => {
          this.#questions.delete(key);
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          done();
          reject(signal.reason instanceof Error ? signal.reason : new Error('the question was withdrawn'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.#questions.set(key, {
          params,
          sent: false,
          answer: (result) => {
            done();
            resolve(result);
          },
        });
        this.#wake?.();
      }),
  };

  /** Runs the call; its outcome is kept for the request that waits for it. */
  run(invoke: (signal: AbortSignal) => Promise<CallAnswer>): void {
    invoke(this.#abort.signal).then(
      (result) => this.#settle({ result }),
      (error: unknown) => this.#settle({ error }),
    );
  }

  /**
   * Takes a retry's answers to the questions last sent. A question left unanswered is asked again; an answer that is
   * not an elicitation result is refused, naming its key.
   */
  answer(responses: Readonly<Record<string, unknown>> | undefined): void {
    const answers: [Question, ElicitResult][] = [];
    for (const [key, question] of this.#questions) {
      if (!question.sent) continue;
      const response = responses?.[key];
      if (response === undefined) {
        question.sent = false;
        continue;
      }
      answers.push([question, elicitResultOf(key, response)]);
    }
    for (const [question, result] of answers) question.answer(result);
  }

  /**
   * Serves one request of the call: resolves with the call's result once it has one, or with an input-required
   * result carrying the questions not yet sent. The request's cancellation cancels the call.
   */
  async leg(leg: CallLeg): Promise<CallAnswer | InputRequiredResult> {
    // One request at a time waits for a call: a second retry while one waits would never be woken.
    if (this.waiting) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Another request is already waiting for this call');
    }
    this.#modes = leg.modes;
    const cancel = () => this.#abort.abort(leg.signal.reason);
    if (leg.signal.aborted) cancel();
    leg.signal.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        const outcome = this.#outcome;
        if (outcome !== undefined) {
          this.#forget();
          if ('error' in outcome) throw outcome.error;
          return outcome.result;
        }
        const unsent = [...this.#questions].filter(([, question]) => !question.sent);
        if (unsent.length > 0) {
          for (const [, question] of unsent) question.sent = true;
          const inputRequests = Object.fromEntries(unsent.map(([key, question]) => [key, embedded(question.params)]));
          return inputRequired({ inputRequests, requestState: this.id });
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      this.#wake = undefined;
      leg.signal.removeEventListener('abort', cancel);
    }
  }

  #settle(outcome: Outcome): void {
    this.#outcome = outcome;
    if (this.#wake !== undefined) this.#wake();
    // No request is waiting (the client went away between rounds): forget the result unless a retry comes soon.
    else setTimeout(this.#forget, UNCOLLECTED_MS).unref();
  }
}

/** The round-trip calls of a gateway, by their `requestState`, across the requests (and server instances) serving them. */
export class RoundTrips {
  readonly #calls = new Map<string, RoundTripCall>();

  /**
   * A new call of `tool` by `owner` (a tenant and conversation, as a string only that owner produces), whose client
   * declared `modes` (known before the call runs: the host may ask before its first await).
   */
  start(owner: string, tool: string, modes: CallLeg['modes']): RoundTripCall {
    const call: RoundTripCall = new RoundTripCall(owner, tool, modes, () => this.#calls.delete(call.id));
    this.#calls.set(call.id, call);
    return call;
  }

  /** The call a retry continues, or a -32602 error when its `requestState` names no call of this owner and tool. */
  resume(requestState: string, owner: string, tool: string): RoundTripCall {
    const call = this.#calls.get(requestState);
    if (call === undefined || !call.belongsTo(owner, tool)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
        reason: 'invalid_request_state',
      });
    }
    if (call.waiting) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Another request is already waiting for this call');
    }
    return call;
  }

  /** The calls waiting now (for tests and health). */
  get size(): number {
    return this.#calls.size;
  }
}

/** A question as the 2026-07-28 revision embeds it: URL mode has no `elicitationId` there. */
export function embedded(params: ElicitRequestFormParams | ElicitRequestURLParams): InputRequest {
  if (params.mode === 'url') return inputRequired.elicitUrl({ message: params.message, url: params.url });
  return inputRequired.elicit(params);
}

export function elicitResultOf(key: string, response: unknown): ElicitResult {
  const action = (response as { action?: unknown } | null)?.action;
  const content = (response as { content?: unknown }).content;
  const contentOk = content === undefined || (typeof content === 'object' && content !== null);
  if ((action === 'accept' || action === 'decline' || action === 'cancel') && contentOk) {
    return response as ElicitResult;
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses.${key} is not an elicitation result`);
}
