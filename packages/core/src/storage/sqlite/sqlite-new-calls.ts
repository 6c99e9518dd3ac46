import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../invocations/invocation-record.js';
import type { InvocationState } from '../../invocations/invocation-state.js';
import { sameScope } from '../../scope.js';
import type { Scope } from '../../scope.js';
import { duplicateInvocation, duplicateSeq, notFound, staleTransition } from '../store-checks.js';
import { errorParam, invocationParams, resultParams, transitionParams } from './sqlite-rows.js';
import type { SqliteRowInsert } from './sqlite-row-insert.js';
import type { SqliteStatement } from './sqlite-store-config.js';

/** Where `invocationParams` binds the columns a transition changes. */
const STATE = 11;
const OUTCOME = 12;
const ERROR = 13;
const UPDATED_AT = 15;

interface NewCall {
  readonly scope: Scope;
  /** The row as it will be inserted: `invocationParams` of the record, patched by each transition. */
  readonly values: unknown[];
  state: InvocationState;
  readonly seqs: number[];
}

/** What `SqliteNewCalls` writes with. */
export interface SqliteNewCallsConfig {
  /** Selects the ids of a JSON array that are stored already. */
  readonly existingIds: SqliteStatement;
  readonly invocations: SqliteRowInsert;
  readonly transitions: SqliteRowInsert;
  readonly results: SqliteRowInsert;
}

/**
 * The calls a batch creates, kept in memory until the batch's end (or a write that needs their rows) and then
 * inserted with their final state, their transitions and their results in a few multi-row INSERTs, as
 * `PostgresStore` does: a call that starts and ends within one commit (the history writer's usual batch) costs one
 * row of each table and no UPDATE, instead of an insert and an update per transition. Its transitions are checked
 * here exactly as the database checks the others (scope, compare-and-set on the state, one row per seq); calls
 * created by earlier batches go through the database. Internal to storage/sqlite/.
 */
export class SqliteNewCalls {
  readonly #config: SqliteNewCallsConfig;
  readonly #calls = new Map<string, NewCall>();
  readonly #transitions: unknown[][] = [];
  readonly #results: unknown[][] = [];
  /** Ids the batch creates that are stored already (`begin`). */
  #taken: ReadonlySet<string> = new Set();

  constructor(config: SqliteNewCallsConfig) {
    this.#config = config;
  }

  /**
   * Starts a batch: forgets anything a failed batch left, and finds which ids it creates are stored already, in one
   * query (the write lock is held, so no other connection can store one meanwhile), so that such a create is refused
   * where it stands in the batch.
   */
  begin(ids: readonly string[]): void {
    this.#forget();
    this.#taken =
      ids.length === 0
        ? new Set()
        : new Set((this.#config.existingIds.all(JSON.stringify(ids)) as { id: string }[]).map((row) => row.id));
  }

  /** True when this batch created the call `id` and has not inserted it yet (its transitions are applied here). */
  has(id: string): boolean {
    return this.#calls.has(id);
  }

  /** Keeps a new call (checked by the caller) and its first transition. */
  create(record: InvocationRecord, first: TransitionRecord): void {
    if (this.#calls.has(record.id) || this.#taken.has(record.id)) throw duplicateInvocation(record.id);
    this.#calls.set(record.id, {
      scope: record.scope,
      values: invocationParams(record),
      state: record.state,
      seqs: [first.seq],
    });
    this.#transitions.push(transitionParams(first));
  }

  /** Applies a transition (checked against the state machine by the caller) to a call this batch created. */
  transition(scope: Scope, t: TransitionRecord, result: ResultRecord | undefined): void {
    const call = this.#calls.get(t.invocationId);
    if (call === undefined || !sameScope(call.scope, scope)) throw notFound(t.invocationId);
    if (call.state !== t.from) throw staleTransition(t, call.state);
    if (call.seqs.includes(t.seq)) throw duplicateSeq(t);
    call.seqs.push(t.seq);
    call.state = t.to;
    call.values[STATE] = t.to;
    call.values[OUTCOME] = t.outcome;
    call.values[ERROR] = errorParam(t.error);
    call.values[UPDATED_AT] = t.at;
    this.#transitions.push(transitionParams(t));
    if (result !== undefined) this.#results.push(resultParams(result));
  }

  /** Inserts everything kept (the calls first: their transitions and results reference them), then forgets it. */
  flush(): void {
    if (this.#calls.size === 0) return;
    const { invocations, transitions, results } = this.#config;
    for (const call of this.#calls.values()) invocations.add(call.values);
    invocations.flush();
    for (const row of this.#transitions) transitions.add(row);
    transitions.flush();
    for (const row of this.#results) results.add(row);
    results.flush();
    this.#forget();
  }

  #forget(): void {
    this.#calls.clear();
    this.#transitions.length = 0;
    this.#results.length = 0;
    this.#config.invocations.clear();
    this.#config.transitions.clear();
    this.#config.results.clear();
  }
}
