import { describe, expect, it } from 'vitest';
import type { HostStore } from '../store/host-store.js';
import type { ViewConsentRecord } from '../store/view-consent-record.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import { expectRejection } from './host-store-fixtures.js';
import { openStorePerTest } from './open-store-per-test.js';

const TENANT = { userId: 'user-a', workspaceId: 'workspace-a' };

function consent(overrides: Partial<ViewConsentRecord> = {}): ViewConsentRecord {
  return {
    ...TENANT,
    serverId: 'demo',
    uri: 'ui://demo/camera',
    permission: 'camera',
    decision: 'allow',
    decidedAt: 1_000,
    ...overrides,
  };
}

/**
 * The views' consents part of the `HostStore` contract: a user's answer about a view's browser feature kept under
 * its key (user, workspace, server, view, feature) and replaced there, listed in key order by tenant, server or view,
 * invisible to another tenant, revoked by key, refused with the field named when malformed. Declared by
 * `describeHostStoreContract`.
 */
export function describeViewConsentContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: views' browser-permission consents)`, () => {
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        store = next.store;
      },
    });

    it('keeps an answer under its key and replaces it there with a later one', async () => {
      await store.write([{ kind: 'viewConsent.put', record: consent() }]);
      await store.write([
        { kind: 'viewConsent.put', record: consent({ permission: 'microphone', decision: 'deny' }) },
        { kind: 'viewConsent.put', record: consent({ decision: 'deny', decidedAt: 2_000 }) },
      ]);

      expect(await store.listViewConsents(TENANT)).toEqual([
        consent({ decision: 'deny', decidedAt: 2_000 }),
        consent({ permission: 'microphone', decision: 'deny' }),
      ]);
    });

    it("lists a tenant's answers by server or by view, in key order, and shows another tenant none", async () => {
      const other = consent({ serverId: 'maps', uri: 'ui://maps/where', permission: 'geolocation' });
      const second = consent({ uri: 'ui://demo/clip', permission: 'clipboardWrite' });
      await store.write([
        { kind: 'viewConsent.put', record: other },
        { kind: 'viewConsent.put', record: consent() },
        { kind: 'viewConsent.put', record: second },
      ]);

      expect(await store.listViewConsents(TENANT)).toEqual([consent(), second, other]);
      expect(await store.listViewConsents(TENANT, { serverId: 'maps' })).toEqual([other]);
      expect(await store.listViewConsents(TENANT, { serverId: 'demo', uri: 'ui://demo/camera' })).toEqual([consent()]);
      expect(await store.listViewConsents({ userId: 'user-b', workspaceId: 'workspace-a' })).toEqual([]);
      expect(await store.listViewConsents({ userId: 'user-a', workspaceId: 'workspace-b' })).toEqual([]);
    });

    it('revokes an answer by its whole key, and never another tenant’s', async () => {
      await store.write([
        { kind: 'viewConsent.put', record: consent() },
        { kind: 'viewConsent.put', record: consent({ permission: 'microphone' }) },
      ]);
      const { decision: _d, decidedAt: _t, ...key } = consent();

      await store.write([{ kind: 'viewConsent.delete', key: { ...key, userId: 'user-b' } }]);
      expect(await store.listViewConsents(TENANT)).toHaveLength(2);
      await store.write([{ kind: 'viewConsent.delete', key }]);
      expect(await store.listViewConsents(TENANT)).toEqual([consent({ permission: 'microphone' })]);
    });

    it('refuses a malformed answer, naming the field, and keeps nothing of that batch', async () => {
      const refused = await expectRejection(
        store.write([
          { kind: 'viewConsent.put', record: consent() },
          { kind: 'viewConsent.put', record: consent({ decision: 'maybe' as 'allow' }) },
        ]),
        'invalid_arguments',
      );
      expect(refused.data).toMatchObject({ field: 'decision' });
      expect(await store.listViewConsents(TENANT)).toEqual([]);
      const empty = await expectRejection(
        store.write([{ kind: 'viewConsent.put', record: consent({ uri: '' }) }]),
        'invalid_arguments',
      );
      expect(empty.data).toMatchObject({ field: 'uri' });
    });
  });
}
