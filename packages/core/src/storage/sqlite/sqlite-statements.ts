import type { Scope } from '../../scope.js';
import { ENDED } from '../sql/call-rows.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';
import { INVOCATION_COLUMNS, RESULT_COLUMNS, TRANSITION_COLUMNS } from '../sql/call-rows.js';
import { DECISION_COLUMNS, DECISION_KEY_COLUMNS } from '../sql/decision-rows.js';

// Every statement SqliteStore runs, prepared once when the store opens. Internal to storage/.

/** Every history statement names all three scope keys, so a row of another tenant is simply not found. */
function inScope(alias = ''): string {
  const a = alias === '' ? '' : `${alias}.`;
  return `${a}user_id = ? AND ${a}workspace_id = ? AND ${a}conversation_id = ?`;
}

const IN_TENANT = 'user_id = ? AND workspace_id = ?';

function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

/** The three scope keys in the order `inScope` binds them. */
export function scopeParams(scope: Scope): [string, string, string] {
  return [scope.userId, scope.workspaceId, scope.conversationId];
}

/** The store's prepared statements. */
export interface SqliteStatements {
  /** The ids of a JSON array of ids that are stored already. */
  readonly existingIds: SqliteStatement;
  readonly insertTransition: SqliteStatement;
  readonly insertResult: SqliteStatement;
  readonly applyTransition: SqliteStatement;
  readonly stateOf: SqliteStatement;
  readonly getInvocation: SqliteStatement;
  readonly listInvocations: SqliteStatement;
  readonly listInvocationsBefore: SqliteStatement;
  readonly listModelCallInvocations: SqliteStatement;
  readonly listTenantModelCallInvocations: SqliteStatement;
  readonly listTenantInvocations: SqliteStatement;
  readonly listTenantInvocationsBefore: SqliteStatement;
  readonly listTransitions: SqliteStatement;
  readonly getResult: SqliteStatement;
  /** Inserts a decision, or overwrites the one with its key (id included). */
  readonly upsertDecision: SqliteStatement;
  /** Deletes one decision by id, only within the tenant (user, workspace) given. */
  readonly deleteDecision: SqliteStatement;
  /** Every decision; of one user; of one workspace; of one user in one workspace. */
  readonly listDecisions: SqliteStatement;
  readonly listDecisionsOfUser: SqliteStatement;
  readonly listDecisionsOfWorkspace: SqliteStatement;
  readonly listDecisionsOfTenant: SqliteStatement;
  /** The seq and hash of the last stored event: what the next event links to. */
  readonly lastAudit: SqliteStatement;
  readonly auditAt: SqliteStatement;
  readonly countAuditThrough: SqliteStatement;
  readonly deleteAuditThrough: SqliteStatement;
  readonly expireResult: SqliteStatement;
  readonly deleteEnded: SqliteStatement;
}

/** Prepares every statement on `db` (whose schema is migrated). */
export function prepareStatements(db: SqliteDatabase): SqliteStatements {
  const newestFirst = 'ORDER BY created_at DESC, rowid DESC LIMIT ?';
  const decisions = `SELECT ${DECISION_COLUMNS} FROM permission_decisions`;
  return {
    existingIds: db.prepare('SELECT id FROM invocations WHERE id IN (SELECT value FROM json_each(?))'),
    insertTransition: db.prepare(`INSERT INTO invocation_transitions (${TRANSITION_COLUMNS}) VALUES (${marks(7)})`),
    insertResult: db.prepare(`INSERT INTO invocation_results (${RESULT_COLUMNS}) VALUES (${marks(5)})`),
    // Compare-and-set on the state: a stale or repeated transition changes no row instead of rewriting history.
    applyTransition: db.prepare(
      `UPDATE invocations SET state = ?, outcome = ?, error = ?, updated_at = ? WHERE id = ? AND ${inScope()} AND state = ?`,
    ),
    stateOf: db.prepare(`SELECT state FROM invocations WHERE id = ? AND ${inScope()}`),
    getInvocation: db.prepare(`SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE id = ? AND ${inScope()}`),
    listInvocations: db.prepare(`SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope()} ${newestFirst}`),
    listInvocationsBefore: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope()} AND created_at < ? ${newestFirst}`,
    ),
    // The calls of one model call id (created before the given time): a scope's, or a tenant's.
    listModelCallInvocations: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope()} AND model_call_id = ? AND created_at < ? ` +
        newestFirst,
    ),
    listTenantModelCallInvocations: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} AND model_call_id = ? AND created_at < ? ` +
        newestFirst,
    ),
    // Every conversation of a user in a workspace: the (user, workspace, conversation, time) index's prefix.
    listTenantInvocations: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} ${newestFirst}`,
    ),
    listTenantInvocationsBefore: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} AND created_at < ? ${newestFirst}`,
    ),
    listTransitions: db.prepare(
      `SELECT ${prefixed('t', TRANSITION_COLUMNS)} FROM invocation_transitions t JOIN invocations i ` +
        `ON i.id = t.invocation_id WHERE t.invocation_id = ? AND ${inScope('i')} ORDER BY t.seq`,
    ),
    getResult: db.prepare(
      `SELECT ${prefixed('r', RESULT_COLUMNS)}, r.expired_at FROM invocation_results r JOIN invocations i ` +
        `ON i.id = r.invocation_id WHERE r.invocation_id = ? AND ${inScope('i')}`,
    ),
    // Only the key's conflict is resolved here: an id that another key's row holds still fails its PRIMARY KEY.
    upsertDecision: db.prepare(
      `INSERT INTO permission_decisions (${DECISION_COLUMNS}) VALUES (${marks(14)}) ` +
        `ON CONFLICT (${DECISION_KEY_COLUMNS}) DO UPDATE SET ` +
        'id = excluded.id, server_id = excluded.server_id, definition_hash = excluded.definition_hash, ' +
        'effect = excluded.effect, risk_tier = excluded.risk_tier, granted_at = excluded.granted_at, ' +
        'expires_at = excluded.expires_at, granted_by = excluded.granted_by',
    ),
    deleteDecision: db.prepare('DELETE FROM permission_decisions WHERE id = ? AND user_id = ? AND workspace_id = ?'),
    listDecisions: db.prepare(decisions),
    listDecisionsOfUser: db.prepare(`${decisions} WHERE user_id = ?`),
    listDecisionsOfWorkspace: db.prepare(`${decisions} WHERE workspace_id = ?`),
    listDecisionsOfTenant: db.prepare(`${decisions} WHERE user_id = ? AND workspace_id = ?`),
    lastAudit: db.prepare('SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1'),
    auditAt: db.prepare('SELECT seq, hash FROM audit_events WHERE seq = ?'),
    countAuditThrough: db.prepare('SELECT COUNT(*) AS n FROM audit_events WHERE seq <= ?'),
    deleteAuditThrough: db.prepare('DELETE FROM audit_events WHERE seq <= ?'),
    expireResult: db.prepare(
      "UPDATE invocation_results SET full_text = '', raw_json = '', expired_at = ? " +
        `WHERE invocation_id = ? AND expired_at IS NULL AND invocation_id IN (SELECT id FROM invocations WHERE ${ENDED})`,
    ),
    deleteEnded: db.prepare(`DELETE FROM invocations WHERE id = ? AND ${ENDED}`),
  };
}
