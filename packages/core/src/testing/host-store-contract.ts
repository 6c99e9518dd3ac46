import type { HostStoreContractOptions } from './store-contract-options.js';
import { describeAuditContract } from './host-store-audit-contract.js';
import { describeCredentialContract } from './host-store-credential-contract.js';
import { describeConversationContract } from './host-store-conversation-contract.js';
import { describeDecisionContract } from './host-store-decision-contract.js';
import { describeGroupContract } from './host-store-group-contract.js';
import { describeHistoryContract } from './host-store-history-contract.js';
import { describeModelCallContract } from './host-store-model-call-contract.js';
import { describePruneContract } from './host-store-prune-contract.js';
import { describeRetentionContract } from './host-store-retention-contract.js';
import { describeTaskContract } from './host-store-task-contract.js';
import { describeTenantHistoryContract } from './host-store-tenant-history-contract.js';
import { describeViewConsentContract } from './host-store-view-consent-contract.js';
import { describeWriteContract } from './host-store-write-contract.js';

/**
 * Declares the one contract every `HostStore` keeps, as vitest `describe` blocks named after the backend: history,
 * the store's one write (batches: order, atomicity, every kind of write), the audit chain, permission decisions and
 * credentials. Each case gets a fresh store from `open` and disposes of it afterwards. Ship a store only when it passes
 * all of them: the host relies on nothing else.
 *
 * @example
 * ```ts
 * import { describeHostStoreContract } from '@airlock/core/testing';
 * describeHostStoreContract({ name: 'PostgresStore', open: async () => ({ store, cleanup }) });
 * ```
 */
export function describeHostStoreContract(options: HostStoreContractOptions): void {
  describeHistoryContract(options);
  describeTenantHistoryContract(options);
  describeModelCallContract(options);
  describeWriteContract(options);
  describeGroupContract(options);
  describeAuditContract(options);
  describeDecisionContract(options);
  describePruneContract(options);
  describeRetentionContract(options);
  describeCredentialContract(options);
  describeTaskContract(options);
  describeConversationContract(options);
  describeViewConsentContract(options);
}
