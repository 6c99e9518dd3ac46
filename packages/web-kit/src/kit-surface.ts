import type {
  ElicitationAnswer,
  ElicitationRequest,
  PermissionDecision,
  PermissionRequest,
  SignInRequest,
  Surface,
} from '@airlock/core';
import { PERMISSION_DECISIONS } from '@airlock/core';
import type { KitBusNews, KitOtherNews, KitQuestionBus, Tenant } from './kit-question-bus.js';
import { isKitNews, sameTenant, tenantKey } from './kit-question-bus.js';
import { KitRefusal } from './kit-refusal.js';

/** What the surface tells the pages: a question opened or closed, for one tenant. */
export type QuestionNews =
  | { readonly kind: 'opened'; readonly request: PermissionRequest }
  | { readonly kind: 'closed'; readonly request: PermissionRequest; readonly decision: PermissionDecision | null };

/** A sign-in to a remote server, as the app shows it (a popup at the URL it resolves with, say). */
export type KitSignIn = (request: SignInRequest, signal: AbortSignal) => Promise<URL | string>;

/** How a kit surface is made: with the app's other instances, and whether it offers sign-in. */
export interface KitSurfaceOptions {
  /** Shares permission questions, answers and cancels with the app's other instances; alone when not given. */
  readonly questions?: KitQuestionBus | undefined;
  /**
   * Offers sign-in to remote servers: `authorize` goes to the hook given later by `signInWith` (an app's sign-in
   * usually needs the host, which needs this surface first). Without it, servers that need sign-in stay `needs_auth`.
   */
  readonly signIn?: boolean;
}

/** How many closed question ids are remembered, so a late answer is told "already answered", not "not found". */
const REMEMBERED = 2000;

interface Asking {
  readonly request: PermissionRequest;
  readonly settle: (decision: PermissionDecision | null) => void;
  /** Whether the other instances hold the question (their answers claim it through the bus) once it is told. */
  readonly shared: Promise<boolean>;
}

/**
 * The host's `Surface` for a web app: a permission question waits here until a page of its tenant answers it (the
 * first answer wins; every page is told the question closed). Server questions (elicitations) are shown from the
 * host's events and answered through `host.elicitations.respond`, which validates forms, so `elicit` only waits for
 * the question to close. Sign-in to remote servers is offered only when asked for (`signIn`, then `signInWith`).
 *
 * With a question bus, a question asked here shows on the pages of every instance, one asked elsewhere shows here,
 * and every answer is claimed through the bus: the first, from any instance, reaches the waiting call; a later one is
 * told it came too late (409); one to a question whose instance stopped is told so (410).
 */
export class KitSurface implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  readonly #asking = new Map<string, Asking>();
  /** Questions asked by calls on other instances, shown here until they close. */
  readonly #elsewhere = new Map<string, PermissionRequest>();
  readonly #listeners = new Set<(news: QuestionNews) => void>();
  readonly #bus: KitQuestionBus | undefined;
  /** Questions of this instance's pages that closed, by id, with their tenant's key. */
  readonly #closed = new Map<string, string>();
  #signIn: KitSignIn | undefined;
  /** `Surface.authorize`, present when the surface offers sign-in (the host looks for it). */
  readonly authorize?: KitSignIn;

  constructor(options: KitSurfaceOptions = {}) {
    const bus = options.questions;
    this.#bus = bus;
    bus?.listen((news) => this.#heard(news));
    if (options.signIn === true) {
      this.authorize = (request, signal) =>
        this.#signIn === undefined
          ? Promise.reject(new Error('the app is not ready to sign in yet'))
          : this.#signIn(request, signal);
    }
  }

  /** Where sign-ins to remote servers go, once the app can start them (its host exists). */
  signInWith(signIn: KitSignIn): void {
    this.#signIn = signIn;
  }

  /** Notes that a question of `tenant` closed, so a later answer to it is told so (409), not "not found". */
  remember(id: string, tenant: Tenant): void {
    this.#closed.set(id, tenantKey(tenant));
    if (this.#closed.size > REMEMBERED) this.#closed.delete(this.#closed.keys().next().value as string);
  }

  /** Refuses (409) an answer to `id` when it was a question of this tenant that has closed already. */
  assertNotClosed(tenant: Tenant, id: string, what: string): void {
    if (this.#closed.get(id) === tenantKey(tenant)) throw tooLate(id, what);
  }

  /** Where questions are shared with other instances, when they are. */
  get bus(): KitQuestionBus | undefined {
    return this.#bus;
  }

  /** Hears every question opened and closed; returns what stops it. */
  listen(listener: (news: QuestionNews) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const id = request.invocationId;
    return new Promise<PermissionDecision>((resolve, reject) => {
      if (signal.aborted) return reject(new Error('the question closed before anyone answered it'));
      const bus = this.#bus;
      let told!: (shared: boolean) => void;
      const shared = new Promise<boolean>((resolve) => (told = resolve));
      const settle = (decision: PermissionDecision | null): void => {
        if (!this.#asking.delete(id)) return;
        this.remember(id, request.scope);
        this.#tell({ kind: 'closed', request, decision });
        if (decision !== null) return resolve(decision);
        reject(new Error('the question closed before anyone answered it'));
        // Closed on the other instances' pages too, once they were told of it.
        void shared.then((told) => (told ? bus?.close(request.scope, id) : undefined)).catch(() => undefined);
      };
      signal.addEventListener('abort', () => settle(null), { once: true });
      this.#asking.set(id, { request, settle, shared });
      this.#tell({ kind: 'opened', request });
      // Told after it is held here, so the bus's own news of it is not taken for another instance's question.
      if (bus === undefined) told(false);
      else
        bus.open(request).then(
          () => told(true),
          () => told(false),
        );
    });
  }

  elicit(_request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
    );
  }

  /** The tenant's open permission questions (asked here or on another instance), oldest first. */
  pending(tenant: Tenant): PermissionRequest[] {
    return [...[...this.#asking.values()].map((a) => a.request), ...this.#elsewhere.values()].filter((r) =>
      sameTenant(r.scope, tenant),
    );
  }

  /**
   * Answers the tenant's question `id`, asked here or on another instance: a decision that is not one of
   * PERMISSION_DECISIONS, 400; no such open question, 404; answered already on another instance, 409.
   */
  async decide(tenant: Tenant, id: string, decision: unknown): Promise<void> {
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(decision)) {
      throw new KitRefusal(400, 'invalid_request', `decision must be one of ${PERMISSION_DECISIONS.join(', ')}`);
    }
    const answer = decision as PermissionDecision;
    const asking = this.#asking.get(id);
    const mine = asking !== undefined && sameTenant(asking.request.scope, tenant);
    // Alone (or a question the other instances were never told of): decided here.
    if (mine ? !(await asking.shared) : this.#bus === undefined) {
      const still = this.#asking.get(id);
      if (still === undefined || !sameTenant(still.request.scope, tenant)) throw this.#notOpen(tenant, id);
      return still.settle(answer);
    }
    const claim = await this.#bus!.claim(tenant, id, answer);
    if (claim === 'too_late') throw tooLate(id, 'permission question');
    if (claim === 'unknown') throw this.#notOpen(tenant, id);
    if (typeof claim === 'object') {
      throw new KitRefusal(
        410,
        'instance_lost',
        `the instance that asked permission question ${id} (${claim.lost}) has sent no heartbeat for ` +
          `${claim.staleMs / 1000} s: its call is gone, so the answer would reach no one`,
      );
    }
    this.#ended(id, answer);
  }

  /** A question's end, wherever it was answered: the waiting call here gets the answer; pages here close it. */
  #ended(id: string, decision: PermissionDecision | null): void {
    const asking = this.#asking.get(id);
    if (asking !== undefined) {
      if (decision !== null) asking.settle(decision);
      return;
    }
    const request = this.#elsewhere.get(id);
    if (request === undefined) return;
    this.#elsewhere.delete(id);
    this.remember(id, request.scope);
    this.#tell({ kind: 'closed', request, decision });
  }

  #heard(news: KitBusNews | KitOtherNews): void {
    if (!isKitNews(news)) return;
    if (news.kind === 'opened') {
      const id = news.request.invocationId;
      if (this.#asking.has(id) || this.#elsewhere.has(id) || this.#closed.has(id)) return;
      this.#elsewhere.set(id, news.request);
      this.#tell({ kind: 'opened', request: news.request });
    } else if (news.kind === 'answered') {
      this.#ended(news.id, news.decision);
    } else if (news.kind === 'closed') {
      this.#ended(news.id, null);
    }
  }

  #tell(news: QuestionNews): void {
    for (const listener of this.#listeners) listener(news);
  }

  /** No such open question: 409 when it was the tenant's and closed, else 404. */
  #notOpen(tenant: Tenant, id: string): KitRefusal {
    this.assertNotClosed(tenant, id, 'permission question');
    return new KitRefusal(404, 'not_found', `no open permission question ${id}`);
  }
}

function tooLate(id: string, what: string): KitRefusal {
  return new KitRefusal(409, 'already_answered', `the ${what} ${id} was already answered or has closed`);
}
