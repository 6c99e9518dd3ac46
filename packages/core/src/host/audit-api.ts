import type { AuditLog } from '../audit/audit-log.js';

/**
 * `host.audit`: the chain's reads (query, export, verify) and its anchors. Pruning and the anchoring schedule are the
 * host's own (retention), so they are not here.
 */
export type HostAuditApi = Pick<AuditLog, 'query' | 'export' | 'verify' | 'anchor' | 'anchorFile' | 'anchoring'>;

/** The `host.audit` object over the audit log. */
export function hostAuditApi(audit: AuditLog): HostAuditApi {
  return {
    query: (options) => audit.query(options),
    export: (...args) => audit.export(...args),
    verify: (options) => audit.verify(options),
    anchor: (options) => audit.anchor(options),
    // Fixed by the host's config, so read once.
    anchorFile: audit.anchorFile,
    anchoring: () => audit.anchoring(),
  };
}
