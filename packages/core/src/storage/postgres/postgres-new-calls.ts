import { duplicateInvocation } from '../store-checks.js';
import { placeholders, resultValues } from './postgres-statements.js';
import type { PgClient } from './postgres-store-config.js';
import { INVOCATION_COLUMNS, RESULT_COLUMNS, TRANSITION_COLUMNS } from '../sql/call-rows.js';
import { NewCallRows } from '../sql/new-call-rows.js';

/**
 * The calls a PostgreSQL batch creates (`NewCallRows`), inserted with their transitions and results in a few
 * multi-row INSERTs at the batch's end: a group of calls that start and end within one commit (the history writer's
 * usual batch) costs a handful of round trips however many calls it holds. Calls created by earlier batches go
 * through the database's own checks (`PostgresBatch`).
 */
export class NewCalls extends NewCallRows {
  constructor() {
    super(resultValues);
  }

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
    this.taken = new Set((rows as { id: string }[]).map((row) => row.id));
  }

  /**
   * Inserts everything kept, then forgets it. An id another instance stored since `lookUp` is refused as the insert
   * finds it (`duplicateInvocation`).
   */
  async flush(client: PgClient): Promise<void> {
    const rows = this.callRows();
    if (rows.length === 0) return;
    const ids = this.callIds();
    try {
      await insertRows(client, 'invocations', INVOCATION_COLUMNS, rows);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== '23505') throw error;
      const detail = (error as { detail?: unknown }).detail;
      const named = typeof detail === 'string' ? ids.find((id) => detail.includes(`(${id})`)) : undefined;
      throw duplicateInvocation(named ?? ids[0] ?? '', error);
    }
    await insertRows(client, 'invocation_transitions', TRANSITION_COLUMNS, this.transitionRows);
    await insertRows(client, 'invocation_results', RESULT_COLUMNS, this.resultRows);
    this.forgetRows();
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
