import type { ViewConsentKeeper, ViewPermission } from '@airlock/elements';
import { api } from './api-client.js';

interface KeptConsent {
  readonly permission: string;
  readonly decision: 'allow' | 'deny';
}

const path = (serverId: string, uri: string) =>
  `/api/view-consents?serverId=${encodeURIComponent(serverId)}&uri=${encodeURIComponent(uri)}`;

/**
 * The views' consents as the console keeps them (in its store, for this user and workspace): the page asks the
 * console before it asks the user, so an answer given in another tab or on another instance holds here, and one
 * revoked there is asked again.
 */
export const consoleConsentKeeper: ViewConsentKeeper = {
  async find({ serverId, uri }, asked) {
    const { consents } = await api<{ readonly consents: readonly KeptConsent[] }>('GET', path(serverId, uri));
    const decided = new Map(consents.map((c) => [c.permission, c.decision]));
    if (!asked.every((name) => decided.has(name))) return undefined;
    return asked.filter((name) => decided.get(name) === 'allow');
  },
  async keep({ serverId, uri }, asked, granted) {
    const decisions = Object.fromEntries(
      asked.map((name: ViewPermission) => [name, granted.includes(name) ? 'allow' : 'deny']),
    );
    await api('PUT', '/api/view-consents', { serverId, uri, decisions });
  },
};
