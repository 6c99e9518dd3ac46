import { HostError } from '../errors/host-error.js';
import type { ViewConsentKey, ViewConsentRecord } from '../store/view-consent-record.js';

// The rules every store keeps for views' browser-permission consents, written once (as conversation-checks.ts does).

/** The longest server id, view URI or feature name a consent may carry, in characters. */
const MAX_NAME = 2048;

function invalid(message: string, field: string): HostError {
  return new HostError('invalid_arguments', message, { data: { field } });
}

/** The key as a store keeps it, or `invalid_arguments` naming the field that is missing, empty or too long. */
export function storedViewConsentKey(key: ViewConsentKey): ViewConsentKey {
  for (const field of ['userId', 'workspaceId', 'serverId', 'uri', 'permission'] as const) {
    const value = key[field];
    if (typeof value !== 'string' || value === '' || value.length > MAX_NAME) {
      throw invalid(`a view consent's ${field} must be a string of 1 to ${MAX_NAME} characters`, field);
    }
  }
  return {
    userId: key.userId,
    workspaceId: key.workspaceId,
    serverId: key.serverId,
    uri: key.uri,
    permission: key.permission,
  };
}

/** The record as a store keeps it, or `invalid_arguments` naming the field a store could not keep faithfully. */
export function storedViewConsent(record: ViewConsentRecord): ViewConsentRecord {
  const key = storedViewConsentKey(record);
  if (record.decision !== 'allow' && record.decision !== 'deny') {
    throw invalid(`a view consent's decision is 'allow' or 'deny', not ${String(record.decision)}`, 'decision');
  }
  if (typeof record.decidedAt !== 'number' || !Number.isFinite(record.decidedAt)) {
    throw invalid("a view consent's decidedAt must be a time in milliseconds", 'decidedAt');
  }
  return { ...key, decision: record.decision, decidedAt: record.decidedAt };
}
