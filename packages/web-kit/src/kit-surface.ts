import type {
  ElicitationAnswer,
  ElicitationRequest,
  PermissionDecision,
  PermissionRequest,
  Scope,
  Surface,
} from '@airlock/core';
import { PERMISSION_DECISIONS } from '@airlock/core';
import { KitRefusal } from './kit-refusal.js';

/** A user in a workspace: whose pages see a question, and who may answer it. */
export type Tenant = Pick<Scope, 'userId' | 'workspaceId'>;

/** Whether two scopes are the same user in the same workspace (conversations aside). */
export const sameTenant = (a: Tenant, b: Tenant): boolean => a.userId === b.userId && a.workspaceId === b.workspaceId;

/** What the surface tells the pages: a question opened or closed, for one tenant. */
export type QuestionNews =
  | { readonly kind: 'opened'; readonly request: PermissionRequest }
  | { readonly kind: 'closed'; readonly request: PermissionRequest; readonly decision: PermissionDecision | null };

interface Asking {
  readonly request: PermissionRequest;
  readonly settle: (decision: PermissionDecision | null) => void;
}

/**
 * The host's `Surface` for a web app: a permission question waits here until a page of its tenant answers it (the
 * first answer wins; every page is told the question closed). Server questions (elicitations) are shown from the
 * host's events and answered through `host.elicitations.respond`, which validates forms, so `elicit` only waits for
 * the question to close. Sign-in to remote servers is not offered here: servers that need it stay `needs_auth`.
 */
export class KitSurface implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  readonly #asking = new Map<string, Asking>();
  readonly #listeners = new Set<(news: QuestionNews) => void>();

  /** Hears every question opened and closed; returns what stops it. */
  listen(listener: (news: QuestionNews) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const id = request.invocationId;
    return new Promise<PermissionDecision>((resolve, reject) => {
      const settle = (decision: PermissionDecision | null): void => {
        if (!this.#asking.delete(id)) return;
        this.#tell({ kind: 'closed', request, decision });
        if (decision === null) reject(new Error('the question closed before anyone answered it'));
        else resolve(decision);
      };
      signal.addEventListener('abort', () => settle(null), { once: true });
      if (signal.aborted) return settle(null);
      this.#asking.set(id, { request, settle });
      this.#tell({ kind: 'opened', request });
    });
  }

  elicit(_request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
    );
  }

  /** The tenant's open permission questions, oldest first. */
  pending(tenant: Tenant): PermissionRequest[] {
    return [...this.#asking.values()].map((a) => a.request).filter((r) => sameTenant(r.scope, tenant));
  }

  /** Answers the tenant's question `id`: a decision that is not one of PERMISSION_DECISIONS, 400; no such open question, 404. */
  decide(tenant: Tenant, id: string, decision: unknown): void {
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(decision)) {
      throw new KitRefusal(400, 'invalid_request', `decision must be one of ${PERMISSION_DECISIONS.join(', ')}`);
    }
    const asking = this.#asking.get(id);
    if (asking === undefined || !sameTenant(asking.request.scope, tenant)) {
      throw new KitRefusal(404, 'not_found', `no open permission question ${id}`);
    }
    asking.settle(decision as PermissionDecision);
  }

  #tell(news: QuestionNews): void {
    for (const listener of this.#listeners) listener(news);
  }
}
