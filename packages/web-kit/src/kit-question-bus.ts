import type { PermissionDecision, PermissionRequest } from '@airlock/core';

/** A user in a workspace: whose pages see a question, and who may answer it. */
export type Tenant = { readonly userId: string; readonly workspaceId: string };

/** Whether two scopes are the same user in the same workspace (conversations aside). */
export const sameTenant = (a: Tenant, b: Tenant): boolean => a.userId === b.userId && a.workspaceId === b.workspaceId;

/** One string per tenant, so a map keyed by it compares a user and a workspace at once. */
export const tenantKey = (t: Tenant): string => `${t.userId}\u0000${t.workspaceId}`;

/** What one instance tells the others: a question opened, answered or closed unanswered, a call to cancel. */
export type KitBusNews =
  | { readonly kind: 'opened'; readonly request: PermissionRequest }
  | { readonly kind: 'answered'; readonly id: string; readonly tenant: Tenant; readonly decision: PermissionDecision }
  | { readonly kind: 'closed'; readonly id: string; readonly tenant: Tenant }
  | { readonly kind: 'cancel'; readonly invocationId: string; readonly tenant: Tenant };

/** News of a kind of an app's own, which its bus may carry beside the kit's (the kit ignores it). */
export interface KitOtherNews {
  readonly kind: string;
}

const KIT_KINDS: ReadonlySet<string> = new Set<KitBusNews['kind']>(['opened', 'answered', 'closed', 'cancel']);

/** Whether news heard on a bus is the kit's own, not of an app's own kind. */
export const isKitNews = (news: KitBusNews | KitOtherNews): news is KitBusNews => KIT_KINDS.has(news.kind);

/**
 * An answer's claim: the first (it is applied), one after the question was answered or closed, no such question, or a
 * question whose instance stopped (`lost`: that instance's id; no sign of life for `staleMs`), so no call waits for
 * the answer.
 */
export type KitClaim = 'first' | 'too_late' | 'unknown' | { readonly lost: string; readonly staleMs: number };

/**
 * Where the instances of one app share their permission questions: a question asked by a call on one instance shows
 * on the pages of every instance, the first answer from any of them is the one applied (`claim`), and a cancel
 * reaches the instance running the call. Each instance hears every piece of news, its own included. Implement it over
 * what your instances share (a database's notifications, a message broker); `memoryQuestionBus` shares it within one
 * process.
 */
export interface KitQuestionBus {
  /** Tells every instance of a question asked here; resolves once an answer from anywhere can claim it. */
  open(request: PermissionRequest): Promise<void>;
  /** Claims the answer to a question of `tenant`: only the first claim of an open question is `first`. */
  claim(tenant: Tenant, id: string, decision: PermissionDecision): Promise<KitClaim>;
  /** Closes a question asked here unanswered (its call ended or was cancelled). */
  close(tenant: Tenant, id: string): Promise<void>;
  /** Asks the instance running a call of `tenant` to cancel it. */
  cancel(tenant: Tenant, invocationId: string): Promise<void>;
  /** Hears every piece of news (an app's bus may carry its own kinds too); returns what stops it. */
  listen(listener: (news: KitBusNews | KitOtherNews) => void): () => void;
}

/** How many answered or closed question ids the memory bus remembers, to tell a late answer `too_late`. */
const REMEMBERED = 2000;

/**
 * A question bus for instances in one process (several kits over several hosts, or a test of an implementation's
 * contract): news is told to every listener at once, claims are decided in memory.
 */
export function memoryQuestionBus(): KitQuestionBus {
  const open = new Map<string, Tenant>();
  const over = new Map<string, Tenant>();
  const listeners = new Set<(news: KitBusNews) => void>();
  const tell = (news: KitBusNews): void => {
    for (const listener of [...listeners]) listener(news);
  };
  const finish = (id: string, tenant: Tenant): void => {
    open.delete(id);
    over.set(id, tenant);
    if (over.size > REMEMBERED) over.delete(over.keys().next().value as string);
  };
  return {
    open(request) {
      open.set(request.invocationId, request.scope);
      tell({ kind: 'opened', request });
      return Promise.resolve();
    },
    claim(tenant, id, decision) {
      const asker = open.get(id);
      if (asker === undefined || !sameTenant(asker, tenant)) {
        const done = over.get(id);
        return Promise.resolve(done !== undefined && sameTenant(done, tenant) ? 'too_late' : 'unknown');
      }
      finish(id, asker);
      tell({ kind: 'answered', id, tenant: asker, decision });
      return Promise.resolve('first');
    },
    close(tenant, id) {
      if (open.has(id)) {
        finish(id, tenant);
        tell({ kind: 'closed', id, tenant });
      }
      return Promise.resolve();
    },
    cancel(tenant, invocationId) {
      tell({ kind: 'cancel', invocationId, tenant });
      return Promise.resolve();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
