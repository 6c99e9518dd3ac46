import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../invocations/invocation-record.js';
import type { InvocationState } from '../../invocations/invocation-state.js';
import { sameScope } from '../../scope.js';
import type { Scope } from '../../scope.js';
import { errorParam, invocationParams, transitionParams } from '../sqlite/sqlite-rows.js';
import { INVOCATION_COLUMNS, RESULT_COLUMNS, TRANSITION_COLUMNS } from '../sqlite/sqlite-rows.js';
import { duplicateInvocation, duplicateSeq, notFound, staleTransition } from '../store-checks.js';
import { placeholders, resultValues } from './postgres-statements.js';
import type { PgClient } from './postgres-store-config.js';

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
 * The calls a batch creates, kept in memory until the batch's end and then inserted with their transitions and
 * results in a few multi-row INSERTs: a group of calls that start and end within one commit (the history writer's
 * usual batch) costs a handful of round trips however many calls it holds. Transitions of these calls are checked
 * here exactly as the database would check them (scope, compare-and-set on the state, one row per seq); calls created
 * by earlier batches go through the database's own checks (`PostgresBatch`).
 */
export class NewCalls {
  readonly #calls = new Map<string, NewCall>();
  /** Ids the batch creates that earlier batches already stored (`lookUp`). */
  #taken = new Set<string>();

  /**
   * Finds which of the ids the batch will create are already stored, in one query before the batch's first write,
   * so that such a create is refused where it stands in the batch, before the writes after it.
   */
  async lookUp(client: PgClient, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const { rows } = await client.query({
      name: 'airlock_existing_ids',
      text: 'SELECT id FROM invocations WHERE id = ANY($1::text[])',
      values: [ids],
    });
    this.#taken = new Set((rows as { id: string }[]).map((row) => row.id));
  }
  readonly #transitions: unknown[][] = [];
  readonly #results: unknown[][] = [];

  /** True when this batch created the call `id` (so its transitions are applied here). */
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
      seqs: new Set([first.seq]),
    });
    this.#transitions.push(transitionParams(first));
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
    this.#transitions.push(transitionParams(t));
    if (result !== undefined) this.#results.push(resultValues(result));
  }

  /**
   * Inserts everything kept, then forgets it. An id another instance stored since `lookUp` is refused as the insert
   * finds it (`duplicateInvocation`).
   */
  async flush(client: PgClient): Promise<void> {
    if (this.#calls.size === 0) return;
    const ids = [...this.#calls.keys()];
    const rows = [...this.#calls.values()].map((c) => c.values);
    try {
      await insertRows(client, 'invocations', INVOCATION_COLUMNS, rows);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== '23505') throw error;
      const detail = (error as { detail?: unknown }).detail;
      const named = typeof detail === 'string' ? ids.find((id) => detail.includes(`(${id})`)) : undefined;
      throw duplicateInvocation(named ?? ids[0] ?? '', error);
    }
    await insertRows(client, 'invocation_transitions', TRANSITION_COLUMNS, this.#transitions);
    await insertRows(client, 'invocation_results', RESULT_COLUMNS, this.#results);
    this.#calls.clear();
    this.#transitions.length = 0;
    this.#results.length = 0;
  }
}

/** The most values one statement binds (the protocol allows 65535). */
const MAX_VALUES = 30_000;

/** Inserts rows (each in the columns' order) in as few statements as the protocol's limit on values allows. */
export async function insertRows(client: PgClient, table: string, columns: string, rows: unknown[][]): Promise<void> {
  const width = columns.split(', ').length;
  const perStatement = Math.max(1, Math.floor(MAX_VALUES / width));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const tuples = chunk.map((_, i) => `(${placeholders(width, i * width + 1)})`).join(', ');
    const text = `INSERT INTO ${table} (${columns}) VALUES ${tuples}`;
    // A single row's statement is the common one: prepared once per connection.
    await client.query(
      chunk.length === 1 ? { name: `airlock_insert_${table}`, text, values: chunk[0] } : { text, values: chunk.flat() },
    );
  }
}
