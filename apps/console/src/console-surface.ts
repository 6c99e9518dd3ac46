import type {
  ElicitationAnswer,
  ElicitationRequest,
  PermissionDecision,
  PermissionRequest,
  SignInRequest,
  Surface,
} from '@airlock/core';
import { PERMISSION_DECISIONS } from '@airlock/core';
import { ApiError } from './api-error.js';
import type { ConsoleSignIn } from './console-sign-in.js';
import type { QuestionBus, QuestionNews } from './question-bus.js';
import { IN_PROCESS_QUESTIONS } from './question-bus.js';
import type { Tenant, TabHub } from './tab-hub.js';
import { tenantKey } from './tab-hub.js';

interface Asking {
  readonly request: PermissionRequest;
  readonly decide: (decision: PermissionDecision) => void;
  /** Whether the other instances hold the question (their answers claim it through the bus) once it is told. */
  readonly shared: Promise<boolean>;
}

/** How many answered question ids are remembered, so a late second answer is told "already answered". */
const REMEMBERED = 2000;

/**
 * The host's `Surface` over the console's tabs. A permission request goes to every tab of its tenant and the first
 * answer wins; a tab that opens later finds it in `pendingPermissions`. Elicitations are shown from the host's
 * events and answered through `host.elicitations.respond` (which validates forms), so `elicit` only waits for the
 * question to close. Both modes are declared: a tab can show a form and a URL.
 *
 * With instances sharing questions (`QuestionBus`), a permission request asked here is shown on the tabs of every
 * instance, one asked elsewhere is shown here, and every answer is claimed through the bus: the first one, from any
 * instance, reaches the waiting call; a later one is told it came too late (409).
 */
export class ConsoleSurface implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  readonly #asking = new Map<string, Asking>();
  readonly #closed = new Map<string, string>();
  /** Questions asked by calls on other instances, shown here until they close. */
  readonly #elsewhere = new Map<string, PermissionRequest>();
  readonly #bus: QuestionBus;
  #signIn: ConsoleSignIn | undefined;

  constructor(
    private readonly hub: TabHub,
    bus: QuestionBus = IN_PROCESS_QUESTIONS,
  ) {
    this.#bus = bus;
    bus.listen((news) => this.#heard(news));
  }

  /** Where questions are shared with other instances (the relay shares servers' questions through it too). */
  get questions(): QuestionBus {
    return this.#bus;
  }

  /** Where sign-ins to remote servers go once the host exists (they need it to start). */
  attachSignIn(signIn: ConsoleSignIn): void {
    this.#signIn = signIn;
  }

  /** A sign-in to a remote server: shown in a popup of the tab that asked, finished at the console's callback. */
  authorize(request: SignInRequest, signal: AbortSignal): Promise<string> {
    if (this.#signIn === undefined) return Promise.reject(new Error('the console is not ready to sign in yet'));
    return this.#signIn.authorize(request, signal);
  }

  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const id = request.invocationId;
    return new Promise<PermissionDecision>((resolve, reject) => {
      const close = (decision: PermissionDecision | null) => {
        this.#asking.delete(id);
        this.remember(id, request.scope);
        this.hub.send(request.scope, 'permission.closed', { id, decision });
      };
      signal.addEventListener(
        'abort',
        () => {
          const asking = this.#asking.get(id);
          if (asking === undefined) return;
          close(null);
          reject(new Error('the question closed before anyone answered it'));
          // Closed on the other instances' tabs too, once they were told of it.
          void asking.shared
            .then((told) => (told ? this.#bus.close(request.scope, id) : undefined))
            .catch(() => undefined);
        },
        { once: true },
      );
      const shared = this.#bus.shared
        ? this.#bus.open(request).then(
            () => true,
            () => false,
          )
        : Promise.resolve(false);
      this.#asking.set(id, {
        request,
        decide: (decision) => {
          close(decision);
          resolve(decision);
        },
        shared,
      });
      this.hub.send(request.scope, 'permission.requested', request);
    });
  }

  elicit(_request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
    );
  }

  /** The tenant's open permission questions (asked here or on another instance), oldest first. */
  pendingPermissions(tenant: Tenant): PermissionRequest[] {
    return [...[...this.#asking.values()].map((a) => a.request), ...this.#elsewhere.values()].filter(
      (r) => tenantKey(r.scope) === tenantKey(tenant),
    );
  }

  /**
   * Answers a permission question for `tenant`, asked here or on another instance. Another tenant's or an unknown id:
   * 404; answered already, here or elsewhere: 409.
   */
  async decide(tenant: Tenant, id: string, decision: unknown): Promise<void> {
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(decision)) {
      throw new ApiError(400, 'invalid_request', `decision must be one of ${PERMISSION_DECISIONS.join(', ')}`);
    }
    const answer = decision as PermissionDecision;
    const asking = this.#asking.get(id);
    const mine = asking !== undefined && tenantKey(asking.request.scope) === tenantKey(tenant);
    // Alone (or a question the other instances were never told of): decided here, as a console alone always has.
    if (mine ? !(await asking.shared) : !this.#bus.shared) {
      const still = this.#asking.get(id);
      if (still === undefined || tenantKey(still.request.scope) !== tenantKey(tenant)) this.#notOpen(tenant, id);
      still.decide(answer);
      return;
    }
    const claim = await this.#bus.claim(tenant, id, answer);
    if (claim === 'too_late') this.#tooLate(id, 'permission question');
    if (claim === 'unknown') this.#notOpen(tenant, id);
    if (typeof claim === 'object') {
      throw new ApiError(
        410,
        'instance_lost',
        `the console instance that asked permission question ${id} (${claim.lost}) has sent no heartbeat for ` +
          `${claim.staleMs / 1000} s: its call is gone, so the answer would reach no one`,
      );
    }
    this.#settle(id, answer);
  }

  /** A question's end, wherever it was answered: the waiting call here gets the answer; tabs here close it. */
  #settle(id: string, decision: PermissionDecision | null): void {
    const asking = this.#asking.get(id);
    if (asking !== undefined) {
      if (decision !== null) asking.decide(decision);
      return;
    }
    const request = this.#elsewhere.get(id);
    if (request === undefined) return;
    this.#elsewhere.delete(id);
    this.remember(id, request.scope);
    this.hub.send(request.scope, 'permission.closed', { id, decision });
  }

  #heard(news: QuestionNews): void {
    if (news.kind === 'opened') {
      const id = news.request.invocationId;
      if (this.#asking.has(id) || this.#elsewhere.has(id) || this.#closed.has(id)) return;
      this.#elsewhere.set(id, news.request);
      this.hub.send(news.request.scope, 'permission.requested', news.request);
    } else if (news.kind === 'answered') {
      this.#settle(news.id, news.decision);
    } else if (news.kind === 'closed') {
      this.#settle(news.id, null);
    }
  }

  #notOpen(tenant: Tenant, id: string): never {
    this.assertNotClosed(tenant, id, 'permission question');
    throw new ApiError(404, 'not_found', `no open permission question ${id}`);
  }

  #tooLate(id: string, what: string): never {
    throw new ApiError(409, 'already_answered', `the ${what} ${id} was already answered or has closed`);
  }

  /** Notes that a question of `tenant` closed, so a later answer to it is told so (409), not "not found". */
  remember(id: string, tenant: Tenant): void {
    this.#closed.set(id, tenantKey(tenant));
    if (this.#closed.size > REMEMBERED) this.#closed.delete(this.#closed.keys().next().value as string);
  }

  /** Throws 409 when `id` was a question of this tenant that has closed already. */
  assertNotClosed(tenant: Tenant, id: string, what: string): void {
    if (this.#closed.get(id) === tenantKey(tenant)) this.#tooLate(id, what);
  }
}
