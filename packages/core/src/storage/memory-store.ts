import { HostError } from '../errors/host-error.js';
import { sameScope } from '../scope.js';
import type { Scope } from '../scope.js';
import type {
  HistoryWrite,
  HostStore,
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from './host-store.js';
import {
  checkFirstTransition,
  checkTransition,
  closedError,
  duplicateInvocation,
  duplicateSeq,
  notFound,
  pageSize,
  staleTransition,
} from './store-checks.js';

interface Entry {
  record: InvocationRecord;
  readonly transitions: TransitionRecord[];
  result: ResultRecord | undefined;
  /** Creation order, to list calls created in the same millisecond newest first. */
  readonly order: number;
}

function scopeKey(scope: Scope): string {
  return JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);
}

/**
 * A `HostStore` in the process's memory: the default of a host given no store, and the store of tests. Nothing
 * survives the process.
 *
 * It keeps the same contract as `SqliteStore` (the one contract suite runs over both), including what a database
 * gives for free: rows are copied in and out with `structuredClone`, so neither the caller's later changes to what it
 * passed nor changes to what it got back can reach a stored row; and every write checks everything before it changes
 * anything, so a refused write leaves no trace.
 */
export class MemoryStore implements HostStore {
  readonly #byId = new Map<string, Entry>();
  readonly #byScope = new Map<string, Entry[]>();
  #created = 0;
  #closed = false;

  /** Applies the writes in order, all or none: a refused write undoes the ones before it. */
  async writeBatch(writes: readonly HistoryWrite[]): Promise<void> {
    const undo: (() => void)[] = [];
    try {
      for (const w of writes) {
        if (w.kind === 'create') {
          await this.createInvocation(w.record, w.first);
          const id = w.record.id;
          undo.push(() => this.#remove(id));
        } else {
          const entry = this.#find(w.scope, w.transition.invocationId);
          const saved = entry && { record: entry.record, count: entry.transitions.length, result: entry.result };
          await this.recordTransition(w.scope, w.transition, w.result);
          if (entry !== undefined && saved !== undefined) {
            undo.push(() => {
              entry.record = saved.record;
              entry.transitions.length = saved.count;
              entry.result = saved.result;
            });
          }
        }
      }
    } catch (error) {
      for (const step of undo.reverse()) step();
      throw error;
    }
  }

  #remove(id: string): void {
    const entry = this.#byId.get(id);
    if (entry === undefined) return;
    this.#byId.delete(id);
    const list = this.#byScope.get(scopeKey(entry.record.scope));
    if (list !== undefined) list.splice(list.indexOf(entry), 1);
  }

  createInvocation(record: InvocationRecord, first: TransitionRecord): Promise<void> {
    return this.#call(() => {
      checkFirstTransition(record, first);
      if (this.#byId.has(record.id)) throw duplicateInvocation(record.id);
      const entry: Entry = {
        record: structuredClone(record),
        transitions: [structuredClone(first)],
        result: undefined,
        order: this.#created++,
      };
      this.#byId.set(record.id, entry);
      const key = scopeKey(record.scope);
      const list = this.#byScope.get(key);
      if (list === undefined) this.#byScope.set(key, [entry]);
      else list.push(entry);
    });
  }

  recordTransition(scope: Scope, transition: TransitionRecord, result?: ResultRecord): Promise<void> {
    return this.#call(() => {
      checkTransition(transition, result);
      const entry = this.#find(scope, transition.invocationId);
      if (entry === undefined) throw notFound(transition.invocationId);
      if (entry.record.state !== transition.from) throw staleTransition(transition, entry.record.state);
      if (entry.transitions.some((t) => t.seq === transition.seq)) throw duplicateSeq(transition);
      const stored = structuredClone(transition);
      const storedResult = result === undefined ? undefined : structuredClone(result);
      entry.record = {
        ...entry.record,
        state: stored.to,
        outcome: stored.outcome,
        error: stored.error,
        updatedAt: stored.at,
      };
      entry.transitions.push(stored);
      if (storedResult !== undefined) entry.result = storedResult;
    });
  }

  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined> {
    return this.#call(() => {
      const entry = this.#find(scope, id);
      return entry === undefined ? undefined : structuredClone(entry.record);
    });
  }

  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]> {
    return this.#call(() => {
      const limit = pageSize(options);
      const before = options?.before;
      const entries = this.#byScope.get(scopeKey(scope)) ?? [];
      return entries
        .filter((entry) => before === undefined || entry.record.createdAt < before)
        .sort((a, b) => b.record.createdAt - a.record.createdAt || b.order - a.order)
        .slice(0, limit)
        .map((entry) => structuredClone(entry.record));
    });
  }

  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]> {
    return this.#call(() => {
      const transitions = this.#find(scope, invocationId)?.transitions ?? [];
      return structuredClone(transitions).sort((a, b) => a.seq - b.seq);
    });
  }

  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined> {
    return this.#call(() => {
      const result = this.#find(scope, invocationId)?.result;
      return result === undefined ? undefined : structuredClone(result);
    });
  }

  /** Drops every row. Idempotent; every other call then rejects with `closed`. */
  close(): Promise<void> {
    this.#closed = true;
    this.#byId.clear();
    this.#byScope.clear();
    return Promise.resolve();
  }

  /** The entry with this id when it belongs to this scope; another tenant's entry is as absent as a missing one. */
  #find(scope: Scope, id: string): Entry | undefined {
    const entry = this.#byId.get(id);
    return entry !== undefined && sameScope(entry.record.scope, scope) ? entry : undefined;
  }

  #call<T>(run: () => T): Promise<T> {
    try {
      if (this.#closed) throw closedError('memory store');
      return Promise.resolve(run());
    } catch (error) {
      if (error instanceof HostError) return Promise.reject(error);
      // structuredClone refuses values JSON could not keep either (functions, symbols): the write fails as a store error.
      const message = error instanceof Error ? error.message : String(error);
      return Promise.reject(
        new HostError('store_error', `the memory store could not copy a row: ${message}`, { cause: error }),
      );
    }
  }
}
