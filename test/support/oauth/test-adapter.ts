// The storage of one test authorization server: its own maps (oidc-provider's quick-start adapter is one LRU shared
// by every provider in the process, and warns on every start), with expiry, consumption and revocation by grant.
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Row {
  payload: AdapterPayload;
  readonly expiresAt: number | undefined;
}

/** Models whose tokens a revoked grant takes with it. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'ClientCredentials']);

/** An adapter class for `Configuration.adapter`, over storage that lives and dies with one server. */
export function testAdapter(): new (model: string) => Adapter {
  const rows = new Map<string, Row>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, string[]>();
  const live = (key: string): AdapterPayload | undefined => {
    const row = rows.get(key);
    if (row === undefined) return undefined;
    if (row.expiresAt !== undefined && Date.now() >= row.expiresAt) {
      rows.delete(key);
      return undefined;
    }
    return row.payload;
  };

  return class TestAdapter implements Adapter {
    constructor(private readonly model: string) {}

    #key(id: string): string {
      return `${this.model}:${id}`;
    }

    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const key = this.#key(id);
      rows.set(key, { payload, expiresAt: expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined });
      if (this.model === 'Session' && payload.uid !== undefined) byUid.set(payload.uid, id);
      if (payload.userCode !== undefined) byUserCode.set(payload.userCode, id);
      if (GRANTABLE.has(this.model) && payload.grantId !== undefined) {
        byGrant.set(payload.grantId, [...(byGrant.get(payload.grantId) ?? []), key]);
      }
      return Promise.resolve();
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve(live(this.#key(id)));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = byUid.get(uid);
      return Promise.resolve(id === undefined ? undefined : live(this.#key(id)));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = byUserCode.get(userCode);
      return Promise.resolve(id === undefined ? undefined : live(this.#key(id)));
    }

    consume(id: string): Promise<void> {
      const payload = live(this.#key(id));
      if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }

    destroy(id: string): Promise<void> {
      rows.delete(this.#key(id));
      return Promise.resolve();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      for (const key of byGrant.get(grantId) ?? []) rows.delete(key);
      byGrant.delete(grantId);
      return Promise.resolve();
    }
  };
}
