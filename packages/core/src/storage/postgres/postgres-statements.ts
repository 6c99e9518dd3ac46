import type { ResultRecord } from '../../store/invocation-record.js';
import type { ModelPayload, ScreenPayload } from '../../store/bounded-result-types.js';
import type { Scope } from '../../scope.js';
import type { PgQueryConfig, PgTypeParsers } from './postgres-store-config.js';
import { ENDED, INVOCATION_COLUMNS, RESULT_COLUMNS, TRANSITION_COLUMNS } from '../sql/call-rows.js';
import { DECISION_COLUMNS, DECISION_KEY_COLUMNS } from '../sql/decision-rows.js';

// Every fixed statement PostgresStore runs, each with a name so that a connection prepares it once. The columns are
// SQLite's (the schemas match), so the row mapping of storage/sql serves both stores. Internal to storage/.

/** The advisory transaction lock that serializes appends to the one audit chain (a constant key, 'chain' in ASCII). */
export const CHAIN_LOCK = 0x636861696e;

const INT8 = 20;
const INT2 = 21;
const INT4 = 23;
const BYTEA = 17;

/**
 * Column parsers of the store's own, so that results do not depend on the pool's global settings: integers as numbers
 * (times in milliseconds and sequence numbers fit in a double), BYTEA (hex format) as a Buffer, everything else as
 * the text the server sends.
 */
export const PARSERS: PgTypeParsers = {
  getTypeParser(oid) {
    if (oid === INT8 || oid === INT4 || oid === INT2) return Number;
    if (oid === BYTEA) return (value) => Buffer.from(value.slice(2), 'hex');
    return (value) => value;
  },
};

/**
 * The database's clock in milliseconds, as an SQL expression: instances' heartbeats and their staleness are read on
 * it, so hosts whose clocks disagree still agree on who is alive.
 */
export const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** `$1, $2, ... $count`, from `$first`. */
export function placeholders(count: number, first = 1): string {
  return Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');
}

/** The three scope keys in the order `inScope` binds them. */
export function scopeValues(scope: Scope): [string, string, string] {
  return [scope.userId, scope.workspaceId, scope.conversationId];
}

function inScope(first: number, alias = ''): string {
  const a = alias === '' ? '' : `${alias}.`;
  return `${a}user_id = $${first} AND ${a}workspace_id = $${first + 1} AND ${a}conversation_id = $${first + 2}`;
}

/** Every conversation of a user in a workspace ($1, $2). */
const IN_TENANT = 'user_id = $1 AND workspace_id = $2';

function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

/** A named statement with its values. */
export function statement(name: string, text: string, values: unknown[]): PgQueryConfig {
  return { name: `airlock_${name}`, text, values, types: PARSERS };
}

const decisions = `SELECT ${DECISION_COLUMNS} FROM permission_decisions`;
const newestFirst = 'ORDER BY created_at DESC, ord DESC';

/** The texts of the store's fixed statements. */
export const SQL = {
  insertTransition: `INSERT INTO invocation_transitions (${TRANSITION_COLUMNS}) VALUES (${placeholders(7)})`,
  insertResult: `INSERT INTO invocation_results (${RESULT_COLUMNS}) VALUES (${placeholders(5)})`,
  // Compare-and-set on the state: a stale or repeated transition changes no row instead of rewriting history.
  applyTransition:
    'UPDATE invocations SET state = $1, outcome = $2, error = $3, updated_at = $4 ' +
    `WHERE id = $5 AND ${inScope(6)} AND state = $9`,
  stateOf: `SELECT state FROM invocations WHERE id = $1 AND ${inScope(2)}`,
  getInvocation: `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE id = $1 AND ${inScope(2)}`,
  listInvocations: `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope(1)} ${newestFirst} LIMIT $4`,
  listInvocationsBefore:
    `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope(1)} AND created_at < $4 ` +
    `${newestFirst} LIMIT $5`,
  // The calls of one model call id (created before the given time): a scope's, or a tenant's.
  listModelCallInvocations:
    `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope(1)} AND model_call_id = $4 AND created_at < $5 ` +
    `${newestFirst} LIMIT $6`,
  listTenantModelCallInvocations:
    `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} AND model_call_id = $3 AND created_at < $4 ` +
    `${newestFirst} LIMIT $5`,
  listTenantInvocations: `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} ${newestFirst} LIMIT $3`,
  listTenantInvocationsBefore:
    `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${IN_TENANT} AND created_at < $3 ` + `${newestFirst} LIMIT $4`,
  listTransitions:
    `SELECT ${prefixed('t', TRANSITION_COLUMNS)} FROM invocation_transitions t JOIN invocations i ` +
    `ON i.id = t.invocation_id WHERE t.invocation_id = $1 AND ${inScope(2, 'i')} ORDER BY t.seq`,
  getResult:
    `SELECT ${prefixed('r', RESULT_COLUMNS)}, r.expired_at FROM invocation_results r JOIN invocations i ` +
    `ON i.id = r.invocation_id WHERE r.invocation_id = $1 AND ${inScope(2, 'i')}`,
  // Only the key's conflict is resolved here: an id that another key's row holds still fails its PRIMARY KEY.
  upsertDecision:
    `INSERT INTO permission_decisions (${DECISION_COLUMNS}) VALUES (${placeholders(14)}) ` +
    `ON CONFLICT (${DECISION_KEY_COLUMNS}) DO UPDATE SET ` +
    'id = excluded.id, server_id = excluded.server_id, definition_hash = excluded.definition_hash, ' +
    'effect = excluded.effect, risk_tier = excluded.risk_tier, granted_at = excluded.granted_at, ' +
    'expires_at = excluded.expires_at, granted_by = excluded.granted_by',
  deleteDecisions: 'DELETE FROM permission_decisions WHERE id = ANY($1::text[]) AND user_id = $2 AND workspace_id = $3',
  listDecisions: decisions,
  listDecisionsOfUser: `${decisions} WHERE user_id = $1`,
  listDecisionsOfWorkspace: `${decisions} WHERE workspace_id = $1`,
  listDecisionsOfTenant: `${decisions} WHERE user_id = $1 AND workspace_id = $2`,
  findDecision:
    `${decisions} WHERE user_id = $1 AND workspace_id = $2 AND server_identity = $3 AND tool = $4 AND args_hash = $5 ` +
    'AND conversation_id = $6',
  /** Taken first in every write transaction: appends to the chain wait here for the writer before them to commit. */
  lockChain: `SELECT pg_advisory_xact_lock(${CHAIN_LOCK})`,
  lastAudit: 'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
  /** Under the chain lock: whether this connection's instance (airlock.instance) was fenced by a takeover. */
  fenced: "SELECT count(*)::int AS fenced FROM fenced_instances WHERE id = current_setting('airlock.instance', true)",
  auditAt: 'SELECT seq, hash FROM audit_events WHERE seq = $1',
  countAuditThrough: 'SELECT COUNT(*)::int8 AS n FROM audit_events WHERE seq <= $1',
  deleteAuditThrough: 'DELETE FROM audit_events WHERE seq <= $1',
  expireResults:
    "UPDATE invocation_results SET full_text = '\\x'::bytea, raw_json = '\\x'::bytea, expired_at = $1 " +
    'WHERE invocation_id = ANY($2::text[]) AND expired_at IS NULL ' +
    `AND invocation_id IN (SELECT id FROM invocations WHERE ${ENDED})`,
  deleteEnded: `DELETE FROM invocations WHERE id = ANY($1::text[]) AND ${ENDED}`,
} as const;

/** Binds a result in `RESULT_COLUMNS` order: the whole text and the raw JSON as UTF-8 bytes. */
export function resultValues(result: ResultRecord): unknown[] {
  return [
    result.invocationId,
    JSON.stringify(result.model),
    JSON.stringify(result.screen),
    Buffer.from(result.fullText, 'utf8'),
    Buffer.from(result.rawJson, 'utf8'),
  ];
}

/** An `invocation_results` row as PARSERS returns it. */
export interface PgResultRow {
  readonly invocation_id: string;
  readonly model: string;
  readonly screen: string;
  readonly full_text: Buffer;
  readonly raw_json: Buffer;
  readonly expired_at: number | null;
}

/** Reads an `invocation_results` row back into the record that was written. */
export function resultFromPgRow(row: PgResultRow): ResultRecord {
  return {
    invocationId: row.invocation_id,
    model: JSON.parse(row.model) as ModelPayload,
    screen: JSON.parse(row.screen) as ScreenPayload,
    fullText: row.full_text.toString('utf8'),
    rawJson: row.raw_json.toString('utf8'),
    ...(row.expired_at === null ? {} : { expiredAt: row.expired_at }),
  };
}
