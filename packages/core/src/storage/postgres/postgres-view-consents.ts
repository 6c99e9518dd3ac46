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
import { PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';

// The view_consents table of a PostgresStore (migration 14): the writes run inside the batch's transaction; any
// instance reads what another kept, so a consent given in one tab holds wherever the user's next tab lands.

const dollars = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`);

/** Applies a `viewConsent.put` or `viewConsent.delete` write on the batch's connection. */
export async function applyViewConsentWrite(
  client: PgClient,
  write: Extract<StoreWrite, { kind: 'viewConsent.put' | 'viewConsent.delete' }>,
): Promise<void> {
  if (write.kind === 'viewConsent.put') {
    await client.query({
      name: 'airlock_view_consent_put',
      text: viewConsentUpsert(dollars(7)),
      values: viewConsentParams(storedViewConsent(write.record)),
    });
    return;
  }
  const k = storedViewConsentKey(write.key);
  await client.query({
    name: 'airlock_view_consent_delete',
    text: viewConsentDelete(dollars(5)),
    values: [k.userId, k.workspaceId, k.serverId, k.uri, k.permission],
  });
}

/** The tenant's consents the filter takes, in key order (bytes, as SQLite sorts). */
export async function listViewConsents(
  pool: PgPool,
  tenant: DecisionTenant,
  filter: ViewConsentFilter | undefined,
): Promise<ViewConsentRecord[]> {
  const { text, values } = viewConsentList(tenant, filter, (i) => `$${i}`, ' COLLATE "C"');
  const { rows } = await pool.query({ text, values, types: PARSERS });
  return (rows as ViewConsentRow[]).map(viewConsentFromRow);
}
