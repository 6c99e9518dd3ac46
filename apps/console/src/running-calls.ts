import type { Host, InvocationRecord, Scope } from '@airlock/core';
import { isTerminalState } from '@airlock/core';
import { ApiError } from './api-error.js';
import type { QuestionBus } from './question-bus.js';
import { IN_PROCESS_QUESTIONS } from './question-bus.js';
import { tenantKey } from '@airlock/web-kit';

/**
 * The calls started from this console (by hand from a page, or by the chat's model) that have not ended, with what
 * cancels each: the card's "Cancel call" needs the call's own AbortController, which only whoever started it has.
 * A call is forgotten as soon as the host says it has ended. With instances sharing a database (`QuestionBus`), a
 * cancel of a call running on another instance is sent to it, and one sent here cancels the call here.
 */
export class RunningCalls {
  readonly #running = new Map<string, { readonly scope: Scope; readonly controller: AbortController }>();
  /** Calls of `#running` that became tasks: they outlive this console (the next one on the store follows them). */
  readonly #tasks = new Set<string>();
  readonly #host: Host;
  readonly #off: () => void;
  readonly #offTask: () => void;
  readonly #bus: QuestionBus;
  readonly #unlisten: () => void;

  constructor({ host, bus = IN_PROCESS_QUESTIONS }: { readonly host: Host; readonly bus?: QuestionBus }) {
    this.#host = host;
    this.#bus = bus;
    this.#off = host.on('invocation.transition', ({ invocation }) => {
      if (!isTerminalState(invocation.state)) return;
      this.#running.delete(invocation.id);
      this.#tasks.delete(invocation.id);
    });
    this.#offTask = host.on('task.updated', ({ task }) => {
      if (this.#running.has(task.invocationId)) this.#tasks.add(task.invocationId);
    });
    this.#unlisten = bus.listen((news) => {
      if (news.kind !== 'cancel') return;
      const running = this.#running.get(news.invocationId);
      if (running !== undefined && tenantKey(running.scope) === tenantKey(news.tenant)) running.controller.abort();
    });
  }

  /** Lets a call started elsewhere (the chat's model) be cancelled from its card. */
  track(invocation: InvocationRecord, controller: AbortController): void {
    this.#running.set(invocation.id, { scope: invocation.scope, controller });
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

  /**
   * Cancels a running call of this tenant: before it runs nothing is sent; while it runs the server is told (a task
   * gets tasks/cancel, even one this console picked up again after a restart). Another tenant's call is not found.
   */
  async cancel(scope: Scope, invocationId: string): Promise<void> {
    const running = this.#running.get(invocationId);
    if (running === undefined || tenantKey(running.scope) !== tenantKey(scope)) {
      const entry = await this.#host.history.get({ scope, invocationId });
      if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
      if (!isTerminalState(entry.invocation.state)) {
        // A task call this host follows (started here, or resumed after a restart): tasks/cancel reaches its server.
        if (this.#host.tasks.cancel({ scope: entry.invocation.scope, invocationId })) return;
        // Running on another instance: that one cancels it.
        if (this.#bus.shared) return this.#bus.cancel(scope, invocationId);
        throw new ApiError(
          409,
          'not_cancellable',
          `invocation ${invocationId} was not started here, so it cannot be cancelled here`,
        );
      }
      throw new ApiError(
        409,
        'not_running',
        `invocation ${invocationId} has already ended (${entry.invocation.state})`,
      );
    }
    running.controller.abort();
  }

  /**
   * Stops listening and cancels every call still running (the console is closing), except tasks: the host's close
   * leaves them open in history, and the next console on the same store follows them to their end.
   */
  close(): void {
    this.#off();
    this.#offTask();
    this.#unlisten();
    for (const [id, { controller }] of this.#running) if (!this.#tasks.has(id)) controller.abort();
  }
}
