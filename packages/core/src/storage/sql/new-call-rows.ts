import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../store/invocation-record.js';
import type { InvocationState } from '../../store/invocation-state.js';
import { sameScope } from '../../scope.js';
import type { Scope } from '../../scope.js';
import { duplicateInvocation, duplicateSeq, notFound, staleTransition } from '../store-checks.js';
import { errorParam, invocationParams, transitionParams } from './call-rows.js';

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
  readonly seqs: Set<number>;
}

/**
 * The rows of the calls a batch creates, kept in memory until the store inserts them at the batch's end with their
 * final state, their transitions and their results: a call that starts and ends within one commit costs one row of
 * each table and no UPDATE. Transitions of these calls are checked here exactly as the database checks the others
 * (scope, compare-and-set on the state, one row per seq). The SQLite and PostgreSQL stores share it; they differ in
 * how they find the ids stored already (`taken`) and how they insert.
 */
export class NewCallRows {
  readonly #calls = new Map<string, NewCall>();
  readonly #resultRow: (result: ResultRecord) => unknown[];
  /** The transitions and results of the calls kept, as rows in their tables' column order. */
  protected readonly transitionRows: unknown[][] = [];
  protected readonly resultRows: unknown[][] = [];
  /** Ids the batch creates that are stored already: such a create is refused where it stands in the batch. */
  protected taken: ReadonlySet<string> = new Set();

  constructor(resultRow: (result: ResultRecord) => unknown[]) {
    this.#resultRow = resultRow;
  }

  /** True when this batch created the call `id` and has not inserted it yet (its transitions are applied here). */
  has(id: string): boolean {
    return this.#calls.has(id);
  }

  /** Keeps a new call (checked by the caller) and its first transition. */
  create(record: InvocationRecord, first: TransitionRecord): void {
    if (this.#calls.has(record.id) || this.taken.has(record.id)) throw duplicateInvocation(record.id);
    this.#calls.set(record.id, {
      scope: record.scope,
      values: invocationParams(record),
      state: record.state,
      seqs: new Set([first.seq]),
    });
    this.transitionRows.push(transitionParams(first));
  }

  /** Applies a transition (checked against the state machine by the caller) to a call this batch created. */
  transition(scope: Scope, t: TransitionRecord, result: ResultRecord | undefined): void {
    const call = this.#calls.get(t.invocationId);
    if (call === undefined || !sameScope(call.scope, scope)) throw notFound(t.invocationId);
    if (call.state !== t.from) throw staleTransition(t, call.state);
    if (call.seqs.has(t.seq)) throw duplicateSeq(t);
    call.seqs.add(t.seq);
    call.state = t.to;
    call.values[STATE] = t.to;
    call.values[OUTCOME] = t.outcome;
    call.values[ERROR] = errorParam(t.error);
    call.values[UPDATED_AT] = t.at;
    this.transitionRows.push(transitionParams(t));
    if (result !== undefined) this.resultRows.push(this.#resultRow(result));
  }

  /** The ids of the calls kept, in the order they were created. */
  protected callIds(): string[] {
    return [...this.#calls.keys()];
  }

  /** The rows of the calls kept, each with its final state. */
  protected callRows(): unknown[][] {
    return [...this.#calls.values()].map((call) => call.values);
  }

  /** Forgets every row kept (after they are inserted, or what a failed batch left). */
  protected forgetRows(): void {
    this.#calls.clear();
    this.transitionRows.length = 0;
    this.resultRows.length = 0;
  }
}
