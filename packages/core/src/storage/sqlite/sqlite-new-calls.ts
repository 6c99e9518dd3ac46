import type { SqliteRowInsert } from './sqlite-row-insert.js';
import type { SqliteStatement } from './sqlite-store-config.js';
import { resultParams } from '../sql/call-rows.js';
import { NewCallRows } from '../sql/new-call-rows.js';

/** What `SqliteNewCalls` writes with. */
export interface SqliteNewCallsConfig {
  /** Selects the ids of a JSON array that are stored already. */
  readonly existingIds: SqliteStatement;
  readonly invocations: SqliteRowInsert;
  readonly transitions: SqliteRowInsert;
  readonly results: SqliteRowInsert;
}

/**
 * The calls a SQLite batch creates (`NewCallRows`): inserted in a few multi-row INSERTs at the batch's end, or before a
 * write that needs their rows. Calls created by earlier batches go through the database. Internal to storage/sqlite/.
 */
export class SqliteNewCalls extends NewCallRows {
  readonly #config: SqliteNewCallsConfig;

  constructor(config: SqliteNewCallsConfig) {
    super(resultParams);
    this.#config = config;
  }

  /**
   * Starts a batch: forgets anything a failed batch left, and finds which ids it creates are stored already, in one
   * query (the write lock is held, so no other connection can store one meanwhile), so that such a create is refused
   * where it stands in the batch.
   */
  begin(ids: readonly string[]): void {
    this.#forget();
    this.taken =
      ids.length === 0
        ? new Set()
        : new Set((this.#config.existingIds.all(JSON.stringify(ids)) as { id: string }[]).map((row) => row.id));
  }

  /** Inserts everything kept (the calls first: their transitions and results reference them), then forgets it. */
  flush(): void {
    const calls = this.callRows();
    if (calls.length === 0) return;
    const { invocations, transitions, results } = this.#config;
    for (const row of calls) invocations.add(row);
    invocations.flush();
    for (const row of this.transitionRows) transitions.add(row);
    transitions.flush();
    for (const row of this.resultRows) results.add(row);
    results.flush();
    this.#forget();
  }

  #forget(): void {
    this.forgetRows();
    this.#config.invocations.clear();
    this.#config.transitions.clear();
    this.#config.results.clear();
  }
}
