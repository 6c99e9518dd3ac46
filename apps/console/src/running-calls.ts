import type { Host, InvocationRecord, Scope } from '@airlock/core';
import type { KitCalls } from '@airlock/web-kit';
import { KitRunningCalls } from '@airlock/web-kit';
import { ApiError } from './api-error.js';
import type { QuestionBus } from './question-bus.js';
import { IN_PROCESS_QUESTIONS } from './question-bus.js';

/**
 * The calls started from this console (by hand from a page, or by the chat's model) that have not ended, with what
 * cancels each: the kit's running calls, which the card's "Cancel call" (the kit's cancel route) reaches. With
 * instances sharing a database (`QuestionBus`), a cancel of a call running on another instance is sent to it, and one
 * sent here cancels the call here.
 */
export class RunningCalls implements KitCalls {
  readonly #host: Host;
  readonly #calls: KitRunningCalls;

  constructor({ host, bus = IN_PROCESS_QUESTIONS }: { readonly host: Host; readonly bus?: QuestionBus }) {
    this.#host = host;
    this.#calls = new KitRunningCalls(host, bus.shared ? bus : undefined);
  }

  /** Lets a call started elsewhere (the chat's model) be cancelled from its card. */
  track(invocation: InvocationRecord, controller: AbortController): void {
    this.#calls.track(invocation, controller);
  }

  /** Starts a call by hand through the one path (caller user); resolves with its id once it is recorded. */
  async start(scope: Scope, tool: string, args: unknown): Promise<string> {
    const controller = new AbortController();
    let id: string | undefined;
    const done = this.#host.invoke({
      scope,
      caller: { kind: 'user' },
      tool,
      args,
      signal: controller.signal,
      onRecorded: (invocation) => {
        id = invocation.id;
        this.track(invocation, controller);
      },
    });
    // The call is recorded in invoke's first synchronous turn; one refused before that (an unknown or hidden tool,
    // arguments that fail the input schema) ends with that outcome and its reason, and nothing was sent.
    if (id !== undefined) {
      done.catch(() => undefined);
      return id;
    }
    const result = await done;
    if (result.error !== undefined && (result.outcome === 'tool_not_found' || result.outcome === 'invalid_arguments')) {
      throw new ApiError(
        result.outcome === 'tool_not_found' ? 404 : 400,
        String(result.error.code),
        result.error.message,
      );
    }
    throw new ApiError(500, 'internal', `the call of ${tool} was not recorded`);
  }

  /** Cancels a running call of this tenant (the kit's `KitRunningCalls.cancel`). */
  cancel(scope: Scope, invocationId: string): Promise<void> {
    return this.#calls.cancel(scope, invocationId);
  }

  /**
   * Stops listening and cancels every call still running (the console is closing), except tasks: the host's close
   * leaves them open in history, and the next console on the same store follows them to their end.
   */
  close(): void {
    this.#calls.close();
    this.#calls.cancelAll();
  }
}
