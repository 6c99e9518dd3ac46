import type { AuditEvent, AuditEventInput } from '../../store/audit-record.js';
import { AuditSealer } from '../../audit/audit-sealer.js';
import { sealStoredAuditInput } from '../store-checks.js';
import type { SqliteRowInsert } from './sqlite-row-insert.js';
import type { SqliteStatement } from './sqlite-store-config.js';
import { auditParams } from '../sql/audit-rows.js';

/** What the next audit event links to. */
type ChainLink = Pick<AuditEvent, 'seq' | 'hash'>;

/**
 * Appends audit events inside the batch's transaction. The last stored event is read on the first append, inside the
 * transaction (so another connection's events are seen and, the write lock held, cannot slip in between), then
 * followed in memory: each event is sealed (numbered, hashed onto the one before) as it is appended, in the batch's
 * order, and the batch's events are inserted together by one multi-row INSERT (`flush`), before the commit or before
 * anything reads the chain. Internal to storage/sqlite/.
 */
export class SqliteAuditAppender {
  readonly #lastAudit: SqliteStatement;
  readonly #insert: SqliteRowInsert;
  readonly #sealer = new AuditSealer();
  /** null until read in this batch. */
  #last: ChainLink | undefined | null = null;

  constructor(lastAudit: SqliteStatement, insert: SqliteRowInsert) {
    this.#lastAudit = lastAudit;
    this.#insert = insert;
  }

  /** Starts a batch: the chain's end is read again on its first append; anything a failed batch kept is dropped. */
  begin(): void {
    this.#last = null;
    this.#insert.clear();
  }

  /** Seals the next event of the chain and keeps it for the insert. */
  append(input: AuditEventInput): void {
    if (this.#last === null) this.#last = this.#lastAudit.get() as ChainLink | undefined;
    const sealed = sealStoredAuditInput(input, this.#last, this.#sealer);
    this.#insert.add(auditParams(sealed));
    this.#last = sealed;
  }

  /** Inserts the events sealed and not inserted yet. */
  flush(): void {
    this.#insert.flush();
  }
}
