import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

/** The most values one statement binds: what SQLite builds before 3.32 allow (`SQLITE_MAX_VARIABLE_NUMBER`). */
export const MAX_BOUND_VALUES = 999;
/** The most rows one statement inserts, for a table of few columns. */
const MAX_ROWS = 64;

/**
 * The rows a batch inserts into one table, kept and then inserted by one multi-row INSERT (a chunk per 64 rows, fewer for a wide table),
 * instead of one statement per row. The statement for each row count is prepared on first use and kept, so a batch
 * binds values and never compiles SQL after the first few batches. A chunk never binds more than 999 values. Internal to storage/sqlite/.
 */
export class SqliteRowInsert {
  readonly #database: SqliteDatabase;
  readonly #head: string;
  readonly #tuple: string;
  /** The rows of one chunk: at most 64, and fewer for a wide table (18 columns: 55 rows, 990 values). */
  readonly #chunk: number;
  /** The statement inserting n rows, at index n. */
  readonly #byCount: (SqliteStatement | undefined)[] = [];
  #values: unknown[] = [];
  #rows = 0;

  constructor(database: SqliteDatabase, table: string, columns: string) {
    this.#database = database;
    this.#head = `INSERT INTO ${table} (${columns}) VALUES `;
    const count = columns.split(', ').length;
    this.#tuple = `(${Array.from({ length: count }, () => '?').join(', ')})`;
    this.#chunk = Math.min(MAX_ROWS, Math.floor(MAX_BOUND_VALUES / count));
  }

  /** Keeps a row (its values in the columns' order); a full chunk is inserted at once. */
  add(values: readonly unknown[]): void {
    for (const value of values) this.#values.push(value);
    if (++this.#rows === this.#chunk) this.flush();
  }

  /** Inserts the rows kept, in the order they were added. */
  flush(): void {
    const rows = this.#rows;
    if (rows === 0) return;
    const values = this.#values;
    this.clear();
    this.#statement(rows).run(...values);
  }

  /** Forgets the rows kept (a batch that failed before they were inserted). */
  clear(): void {
    this.#values = [];
    this.#rows = 0;
  }

  #statement(rows: number): SqliteStatement {
    let statement = this.#byCount[rows];
    if (statement === undefined) {
      statement = this.#database.prepare(this.#head + Array.from({ length: rows }, () => this.#tuple).join(', '));
      this.#byCount[rows] = statement;
    }
    return statement;
  }
}
