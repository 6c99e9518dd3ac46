import { sameScope } from '../../scope.js';
import type { Scope } from '../../scope.js';
import type { InvocationTask, OpenTaskFilter } from '../../store/invocation-task.js';
import { isTerminalState } from '../../store/invocation-state.js';
import type { InvocationState } from '../../store/invocation-state.js';
import { isTerminalTaskStatus } from '../../store/invocation-task.js';
import { notFound } from '../store-checks.js';
import { storedTask } from '../task-checks.js';

/**
 * The task handles of a `MemoryStore`, by invocation id. Each put returns what takes it back, so a refused batch
 * leaves none of its writes; the store says which calls exist and in what state.
 */
export class MemoryTasks {
  readonly #rows = new Map<string, InvocationTask>();

  /** Stores the handle when its call is stored in its scope (`state` of the call, else not_found); returns the undo. */
  put(task: InvocationTask, state: (scope: Scope, id: string) => InvocationState | undefined): () => void {
    const stored = storedTask(task);
    if (state(stored.scope, stored.invocationId) === undefined) throw notFound(stored.invocationId);
    const previous = this.#rows.get(stored.invocationId);
    this.#rows.set(stored.invocationId, stored);
    return () => {
      if (previous === undefined) this.#rows.delete(stored.invocationId);
      else this.#rows.set(stored.invocationId, previous);
    };
  }

  get(scope: Scope, invocationId: string, exists: boolean): InvocationTask | undefined {
    const row = this.#rows.get(invocationId);
    return row !== undefined && exists && sameScope(row.scope, scope) ? structuredClone(row) : undefined;
  }

  /** Open handles whose call is stored and has not ended, oldest first. */
  listOpen(filter: OpenTaskFilter, state: (scope: Scope, id: string) => InvocationState | undefined): InvocationTask[] {
    return [...this.#rows.values()]
      .filter((row) => {
        if (isTerminalTaskStatus(row.status)) return false;
        if (filter.userId !== undefined && row.scope.userId !== filter.userId) return false;
        if (filter.workspaceId !== undefined && row.scope.workspaceId !== filter.workspaceId) return false;
        const call = state(row.scope, row.invocationId);
        return call !== undefined && !isTerminalState(call);
      })
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((row) => structuredClone(row));
  }

  clear(): void {
    this.#rows.clear();
  }
}
