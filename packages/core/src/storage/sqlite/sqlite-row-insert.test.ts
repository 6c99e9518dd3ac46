import { describe, expect, it } from 'vitest';
import { MAX_BOUND_VALUES, SqliteRowInsert } from './sqlite-row-insert.js';
import type { SqliteDatabase } from './sqlite-store-config.js';
import { INVOCATION_COLUMNS } from '../sql/call-rows.js';

/** A database that only records the statements prepared and the values each run binds. */
function recordingDatabase(): { database: SqliteDatabase; runs: { sql: string; values: number }[] } {
  const runs: { sql: string; values: number }[] = [];
  const database = {
    prepare: (sql: string) => ({
      run: (...values: unknown[]) => {
        runs.push({ sql, values: values.length });
        return { changes: 0 };
      },
    }),
  } as unknown as SqliteDatabase;
  return { database, runs };
}

describe('SqliteRowInsert', () => {
  it('never binds more values in one statement than SQLite builds before 3.32 allow, for the widest table', () => {
    const { database, runs } = recordingDatabase();
    const columns = INVOCATION_COLUMNS.split(', ').length;
    const insert = new SqliteRowInsert(database, 'invocations', INVOCATION_COLUMNS);
    for (let i = 0; i < 200; i++) insert.add(Array.from({ length: columns }, (_, c) => `${i}:${c}`));
    insert.flush();
    expect(runs.reduce((sum, run) => sum + run.values, 0)).toBe(200 * columns);
    for (const run of runs) {
      expect(run.values).toBeLessThanOrEqual(MAX_BOUND_VALUES);
      expect(run.sql.split('?').length - 1).toBe(run.values);
    }
  });
});
