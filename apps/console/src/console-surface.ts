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
import type { Tenant, TabHub } from './tab-hub.js';
import { tenantKey } from './tab-hub.js';

interface Asking {
  readonly request: PermissionRequest;
  readonly decide: (decision: PermissionDecision) => void;
}

/** How many answered question ids are remembered, so a late second answer is told "already answered". */
const REMEMBERED = 2000;

/**
 * The host's `Surface` over the console's tabs. A permission request goes to every tab of its tenant and the first
 * answer wins; a tab that opens later finds it in `pendingPermissions`. Elicitations are shown from the host's
 * events and answered through `host.elicitations.respond` (which validates forms), so `elicit` only waits for the
 * question to close. Both modes are declared: a tab can show a form and a URL.
 */
export class ConsoleSurface implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  readonly #asking = new Map<string, Asking>();
  readonly #closed = new Map<string, string>();
  #signIn: ConsoleSignIn | undefined;

  constructor(private readonly hub: TabHub) {}

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
          if (!this.#asking.has(id)) return;
          close(null);
          reject(new Error('the question closed before anyone answered it'));
        },
        { once: true },
      );
      this.#asking.set(id, {
        request,
        decide: (decision) => {
          close(decision);
          resolve(decision);
        },
      });
      this.hub.send(request.scope, 'permission.requested', request);
    });
  }

  elicit(_request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
    );
  }

  /** The tenant's open permission questions, oldest first. */
  pendingPermissions(tenant: Tenant): PermissionRequest[] {
    return [...this.#asking.values()]
      .map((a) => a.request)
      .filter((r) => r.scope.userId === tenant.userId && r.scope.workspaceId === tenant.workspaceId);
  }

  /** Answers a permission question for `tenant`. Another tenant's or an unknown id: 404; answered already: 409. */
  decide(tenant: Tenant, id: string, decision: unknown): void {
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(decision)) {
      throw new ApiError(400, 'invalid_request', `decision must be one of ${PERMISSION_DECISIONS.join(', ')}`);
    }
    const asking = this.#asking.get(id);
    if (asking === undefined || tenantKey(asking.request.scope) !== tenantKey(tenant)) {
      this.assertNotClosed(tenant, id, 'permission question');
      throw new ApiError(404, 'not_found', `no open permission question ${id}`);
    }
    asking.decide(decision as PermissionDecision);
  }

  /** Notes that a question of `tenant` closed, so a later answer to it is told so (409), not "not found". */
  remember(id: string, tenant: Tenant): void {
    this.#closed.set(id, tenantKey(tenant));
    if (this.#closed.size > REMEMBERED) this.#closed.delete(this.#closed.keys().next().value as string);
  }

  /** Throws 409 when `id` was a question of this tenant that has closed already. */
  assertNotClosed(tenant: Tenant, id: string, what: string): void {
    if (this.#closed.get(id) === tenantKey(tenant)) {
      throw new ApiError(409, 'already_answered', `the ${what} ${id} was already answered or has closed`);
    }
  }
}
