import { storedViewConsent, storedViewConsentKey } from '../view-consent-checks.js';
import type { DecisionTenant, StoreWrite } from '../../store/host-store.js';
import type { ViewConsentFilter, ViewConsentRecord } from '../../store/view-consent-record.js';
import {
  viewConsentDelete,
  viewConsentFromRow,
  viewConsentList,
  viewConsentParams,
  viewConsentUpsert,
} from '../sql/view-consent-rows.js';
import type { ViewConsentRow } from '../sql/view-consent-rows.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

const FIVE = Array.from({ length: 5 }, () => '?');

/**
 * The view_consents table of a `SqliteStore` (migration 10): the writes run inside the store's write transaction; a
 * list's statement depends on the filter, so the three shapes are prepared as first used.
 */
export class SqliteViewConsents {
  readonly #database: SqliteDatabase;
  readonly #upsert: SqliteStatement;
  readonly #delete: SqliteStatement;
  readonly #lists = new Map<string, SqliteStatement>();

  constructor(database: SqliteDatabase) {
    this.#database = database;
    this.#upsert = database.prepare(viewConsentUpsert([...FIVE, '?', '?']));
    this.#delete = database.prepare(viewConsentDelete(FIVE));
  }

  /** Applies a `viewConsent.put` or `viewConsent.delete` write (inside the caller's transaction). */
  apply(write: Extract<StoreWrite, { kind: 'viewConsent.put' | 'viewConsent.delete' }>): void {
    if (write.kind === 'viewConsent.put') {
      this.#upsert.run(...viewConsentParams(storedViewConsent(write.record)));
      return;
    }
    const k = storedViewConsentKey(write.key);
    this.#delete.run(k.userId, k.workspaceId, k.serverId, k.uri, k.permission);
  }

  list(tenant: DecisionTenant, filter?: ViewConsentFilter): ViewConsentRecord[] {
    const { text, values } = viewConsentList(tenant, filter, () => '?');
    let statement = this.#lists.get(text);
    if (statement === undefined) {
      statement = this.#database.prepare(text);
      this.#lists.set(text, statement);
    }
    return (statement.all(...values) as ViewConsentRow[]).map(viewConsentFromRow);
  }
}
