import type { InvocationTask, OpenTaskFilter } from '../../store/invocation-task.js';
import type { Scope } from '../../scope.js';
import { notFound } from '../store-checks.js';
import { storedTask } from '../task-checks.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';
import { OPEN_TASK, TASK_COLUMNS, TASK_SELECT, TASK_UPDATE, taskFromRow, taskParams } from '../sql/task-rows.js';
import type { TaskRow } from '../sql/task-rows.js';

const IN_SCOPE = 'i.user_id = ? AND i.workspace_id = ? AND i.conversation_id = ?';

/**
 * The task handles of a `SqliteStore` (migration 5): the put, which runs inside the store's write transaction (so a
 * refused batch leaves none of it), and the two reads.
 */
export class SqliteTasks {
  readonly #callExists: SqliteStatement;
  readonly #upsert: SqliteStatement;
  readonly #get: SqliteStatement;
  readonly #open: SqliteStatement;
  readonly #openOfUser: SqliteStatement;
  readonly #openOfWorkspace: SqliteStatement;
  readonly #openOfTenant: SqliteStatement;

  constructor(database: SqliteDatabase) {
    this.#callExists = database.prepare(`SELECT 1 AS found FROM invocations i WHERE i.id = ? AND ${IN_SCOPE}`);
    this.#upsert = database.prepare(
      `INSERT INTO invocation_tasks (${TASK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
        `ON CONFLICT (invocation_id) DO UPDATE SET ${TASK_UPDATE}`,
    );
    this.#get = database.prepare(`${TASK_SELECT} WHERE t.invocation_id = ? AND ${IN_SCOPE}`);
    const open = `${TASK_SELECT} WHERE ${OPEN_TASK}`;
    this.#open = database.prepare(`${open} ORDER BY t.created_at`);
    this.#openOfUser = database.prepare(`${open} AND i.user_id = ? ORDER BY t.created_at`);
    this.#openOfWorkspace = database.prepare(`${open} AND i.workspace_id = ? ORDER BY t.created_at`);
    this.#openOfTenant = database.prepare(`${open} AND i.user_id = ? AND i.workspace_id = ? ORDER BY t.created_at`);
  }

  /** Stores the handle (inside the caller's transaction); not_found when its call is not stored in its scope. */
  put(task: InvocationTask): void {
    const stored = storedTask(task);
    const { userId, workspaceId, conversationId } = stored.scope;
    if (this.#callExists.get(stored.invocationId, userId, workspaceId, conversationId) === undefined) {
      throw notFound(stored.invocationId);
    }
    this.#upsert.run(...taskParams(stored));
  }

  get(scope: Scope, invocationId: string): InvocationTask | undefined {
    const row = this.#get.get(invocationId, scope.userId, scope.workspaceId, scope.conversationId) as
      TaskRow | undefined;
    return row === undefined ? undefined : taskFromRow(row);
  }

  listOpen(filter: OpenTaskFilter): InvocationTask[] {
    const { userId, workspaceId } = filter;
    const rows =
      userId !== undefined && workspaceId !== undefined
        ? this.#openOfTenant.all(userId, workspaceId)
        : userId !== undefined
          ? this.#openOfUser.all(userId)
          : workspaceId !== undefined
            ? this.#openOfWorkspace.all(workspaceId)
            : this.#open.all();
    return (rows as TaskRow[]).map(taskFromRow);
  }
}
