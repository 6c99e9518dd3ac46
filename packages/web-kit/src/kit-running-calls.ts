import type { Host, InvocationRecord, Scope } from '@airlock/core';
import { isTerminalState } from '@airlock/core';
import type { KitQuestionBus } from './kit-question-bus.js';
import { isKitNews, sameTenant } from './kit-question-bus.js';
import { KitRefusal } from './kit-refusal.js';

/** What the cancel route asks of its app: cancel a running call of the scope's tenant. */
export interface KitCalls {
  /**
   * Cancels the tenant's call `invocationId`, resolving once the cancel is under way. Refuses (KitRefusal) a call
   * the tenant has not got (404), one that has ended (409 `not_running`) and one nobody here can stop (409
   * `not_cancellable`).
   */
  cancel(scope: Scope, invocationId: string): Promise<void>;
}

/**
 * The calls started through this app that have not ended, with what cancels each: a card's "Cancel call" needs the
 * call's own AbortController, which only whoever started it has. A call is forgotten as soon as the host says it
 * ended. With a question bus, a cancel of a call running on another instance is sent to it, and one sent here cancels
 * the call here; instances that share a bus share one history, which says whether the call exists and has ended.
 */
export class KitRunningCalls implements KitCalls {
  readonly #running = new Map<string, { readonly scope: Scope; readonly controller: AbortController }>();
  /** Calls of `#running` that became tasks: they outlive this host (the next one on the store follows them). */
  readonly #tasks = new Set<string>();
  readonly #host: Host;
  readonly #bus: KitQuestionBus | undefined;
  readonly #off: (() => void)[];

  constructor(host: Host, bus?: KitQuestionBus) {
    this.#host = host;
    this.#bus = bus;
    this.#off = [
      host.on('invocation.transition', ({ invocation }) => {
        if (!isTerminalState(invocation.state)) return;
        this.#running.delete(invocation.id);
        this.#tasks.delete(invocation.id);
      }),
      host.on('task.updated', ({ task }) => {
        if (this.#running.has(task.invocationId)) this.#tasks.add(task.invocationId);
      }),
      // A cancel asked on another instance, of a call this one runs.
      ...(bus === undefined
        ? []
        : [
            bus.listen((news) => {
              if (!isKitNews(news) || news.kind !== 'cancel') return;
              const running = this.#running.get(news.invocationId);
              if (running !== undefined && sameTenant(running.scope, news.tenant)) running.controller.abort();
            }),
          ]),
    ];
  }

  /** Lets a call started here (by a page, a model loop) be cancelled from its card. */
  track(invocation: InvocationRecord, controller: AbortController): void {
    if (!isTerminalState(invocation.state)) this.#running.set(invocation.id, { scope: invocation.scope, controller });
  }

  /**
   * Cancels a running call of this tenant: before it runs nothing is sent; while it runs the server is told (a task
   * gets tasks/cancel, even one this host picked up again after a restart). Another tenant's call is not found.
   */
  async cancel(scope: Scope, invocationId: string): Promise<void> {
    const running = this.#running.get(invocationId);
    if (running !== undefined && sameTenant(running.scope, scope)) return running.controller.abort();
    const entry = await this.#host.history.get({ scope, invocationId });
    if (entry === undefined) throw new KitRefusal(404, 'not_found', `no invocation ${invocationId}`);
    const { invocation } = entry;
    if (isTerminalState(invocation.state)) {
      throw new KitRefusal(409, 'not_running', `invocation ${invocationId} has already ended (${invocation.state})`);
    }
    // A task call this host follows (started here, or resumed after a restart): tasks/cancel reaches its server.
    if (this.#host.tasks.cancel({ scope: invocation.scope, invocationId })) return;
    // Running on another instance: that one cancels it.
    if (this.#bus !== undefined) return this.#bus.cancel(scope, invocationId);
    throw new KitRefusal(
      409,
      'not_cancellable',
      `invocation ${invocationId} was not started here, so it cannot be cancelled here`,
    );
  }

  /** Stops following the host and the bus; the calls still running go on. */
  close(): void {
    for (const off of this.#off) off();
  }

  /**
   * Cancels every call still running here (the app is closing), except tasks: the host's close leaves them open in
   * history, and the next host on the same store follows them to their end.
   */
  cancelAll(): void {
    for (const [id, { controller }] of this.#running) if (!this.#tasks.has(id)) controller.abort();
  }
}
