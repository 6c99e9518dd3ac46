import type { AuditQuery } from '../../store/host-store.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';
import type { AuditPage } from '../store-checks.js';
import { AUDIT_COLUMNS } from '../sql/audit-rows.js';
import type { AuditRow } from '../sql/audit-rows.js';

/** Each filter of an `AuditQuery` and the condition it adds; times are inclusive. */
const FILTERS = [
  ['userId', 'user_id = ?'],
  ['workspaceId', 'workspace_id = ?'],
  ['type', 'type = ?'],
  ['serverId', 'server_id = ?'],
  ['tool', 'tool = ?'],
  ['invocationId', 'invocation_id = ?'],
  ['since', 'at >= ?'],
  ['until', 'at <= ?'],
] as const satisfies readonly (readonly [keyof AuditQuery, string])[];

/**
 * The SELECTs behind `SqliteStore.queryAudit`: one statement per combination of filters a caller actually uses,
 * prepared on first use and kept, so a query binds values and never builds SQL from them. A tenant's query walks the
 * `(user_id, workspace_id, seq)` index in seq order; a query without filters walks the table by seq.
 */
export class SqliteAuditQueries {
  readonly #database: SqliteDatabase;
  readonly #statements = new Map<string, SqliteStatement>();

  constructor(database: SqliteDatabase) {
    this.#database = database;
  }

  /** The rows matching `query` (already checked), oldest first, after `page.afterSeq`, at most `page.limit`. */
  rows(query: AuditQuery, page: AuditPage): AuditRow[] {
    const used = FILTERS.filter(([field]) => query[field] !== undefined);
    const key = used.map(([field]) => field).join(' ');
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      const where = [...used.map(([, condition]) => condition), 'seq > ?'].join(' AND ');
      statement = this.#database.prepare(
        `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE ${where} ORDER BY seq LIMIT ?`,
      );
      this.#statements.set(key, statement);
    }
    return statement.all(...used.map(([field]) => query[field]), page.afterSeq, page.limit) as AuditRow[];
  }
}
