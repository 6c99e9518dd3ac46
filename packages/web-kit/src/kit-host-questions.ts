import type { ElicitationRequest, Host } from '@airlock/core';
import type { Tenant } from './kit-question-bus.js';
import { sameTenant } from './kit-question-bus.js';
import type { KitSurface } from './kit-surface.js';

/** Where the answer route finds servers' questions (elicitations): the open ones here, and those asked elsewhere. */
export interface KitQuestions {
  /** The tenant's open question `id`, asked by a call on this instance; undefined when there is none. */
  find(tenant: Tenant, id: string): ElicitationRequest | undefined;
  /**
   * Sends an answer to the tenant's question `id` asked by a call on another instance, which checks it and answers
   * the server; resolves false when no other instance has that question open, and rejects with that instance's
   * refusal. Absent when the app's instances share no servers' questions.
   */
  answerElsewhere?(tenant: Tenant, id: string, answer: unknown): Promise<boolean>;
}

/**
 * The servers' questions of one host, from its events: open until they close, and remembered on the surface once
 * closed, so a late answer (another tab's) is told it came too late rather than that there was no such question.
 */
export class KitHostQuestions implements KitQuestions {
  readonly #open = new Map<string, ElicitationRequest>();
  readonly #off: (() => void)[];

  constructor(host: Host, surface: KitSurface) {
    this.#off = [
      host.on('elicitation.requested', ({ request }) => this.#open.set(request.id, request)),
      host.on('elicitation.closed', ({ request }) => {
        this.#open.delete(request.id);
        surface.remember(request.id, request.scope);
      }),
    ];
  }

  find(tenant: Tenant, id: string): ElicitationRequest | undefined {
    const request = this.#open.get(id);
    return request !== undefined && sameTenant(request.scope, tenant) ? request : undefined;
  }

  /** Stops following the host. */
  close(): void {
    for (const off of this.#off) off();
  }
}
