import { describe, expect, it } from 'vitest';
import { verifyChain } from '../audit/audit-chain.js';
import type { CredentialKey, CredentialRecord } from '../store/credentials.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import { auditInput, expectRejection, labels } from './host-store-fixtures.js';
import { openStorePerTest } from './open-store-per-test.js';

/** A user's tokens for the server `identity-of-docs`, issued by `https://as.example`. */
function tokensKey(overrides: Partial<CredentialKey> = {}): CredentialKey {
  return {
    kind: 'tokens',
    userId: 'user-a',
    serverIdentity: 'identity-of-docs',
    issuer: 'https://as.example',
    ...overrides,
  };
}

/** The client registration with the issuer `https://as.example`. */
function clientKey(issuer = 'https://as.example'): CredentialKey {
  return { kind: 'client', userId: '', serverIdentity: '', issuer };
}

function put(key: CredentialKey, sealed = 'c2VhbGVk', updatedAt = 1_700_000_000_000): StoreWrite {
  return { kind: 'credential.put', key, sealed, updatedAt };
}

function sortRecords(records: readonly CredentialRecord[]): string[] {
  return records.map((r) => JSON.stringify([r.key.kind, r.key.userId, r.key.serverIdentity, r.key.issuer])).sort();
}

/**
 * The credential part of the `HostStore` contract: sealed values stored by their four-field key, replaced whole,
 * deleted by key or by match (a user's for a server; an issuer's client entries), every write with its audit event
 * and all of a batch or none of it. Declared by `describeHostStoreContract`.
 */
export function describeCredentialContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: credentials)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    it('stores a sealed credential and reads it back by its key, and lists it', async () => {
      await store.write([put(tokensKey(), 'AAAA', 5)]);

      expect(await store.getCredential(tokensKey())).toEqual({ key: tokensKey(), sealed: 'AAAA', updatedAt: 5 });
      expect(await store.listCredentials({ userId: 'user-a' })).toEqual([
        { key: tokensKey(), sealed: 'AAAA', updatedAt: 5 },
      ]);
      expect(await store.getCredential(tokensKey({ issuer: 'https://other.example' }))).toBeUndefined();
    });

    it('replaces the credential of the same key', async () => {
      await store.write([put(tokensKey(), 'first', 1)]);
      await store.write([put(tokensKey(), 'second', 2)]);

      expect(await store.listCredentials({})).toEqual([{ key: tokensKey(), sealed: 'second', updatedAt: 2 }]);
    });

    it.each(['kind', 'userId', 'serverIdentity', 'issuer'] as const)(
      'keeps credentials that differ only in %s apart; another user finds nothing',
      async (field) => {
        const other = tokensKey({ [field]: field === 'kind' ? 'pending' : 'other' });
        await store.write([put(tokensKey(), 'mine'), put(other, 'theirs')]);

        expect((await store.getCredential(tokensKey()))?.sealed).toBe('mine');
        expect((await store.getCredential(other))?.sealed).toBe('theirs');
        expect(await store.getCredential(tokensKey({ userId: 'user-z' }))).toBeUndefined();
      },
    );

    it("keeps a machine server's host-wide tokens (userId '') apart from users' tokens", async () => {
      const host = tokensKey({ userId: '' });
      await store.write([put(host, 'host'), put(tokensKey(), 'user')]);
      await store.write([{ kind: 'credential.delete', match: { userId: '', serverIdentity: 'identity-of-docs' } }]);

      expect(await store.getCredential(host)).toBeUndefined();
      expect((await store.getCredential(tokensKey()))?.sealed).toBe('user');
    });

    it('lists by every field of the filter', async () => {
      await store.write([
        put(tokensKey()),
        put(tokensKey({ kind: 'pending', issuer: '' })),
        put(tokensKey({ userId: 'user-b' })),
        put(clientKey()),
      ]);

      expect(await store.listCredentials({ userId: 'user-a', kind: 'tokens' })).toHaveLength(1);
      expect(await store.listCredentials({ userId: 'user-a' })).toHaveLength(2);
      expect(await store.listCredentials({ kind: 'client', issuer: 'https://as.example' })).toHaveLength(1);
      expect(await store.listCredentials({ serverIdentity: 'identity-of-docs' })).toHaveLength(3);
      expect(await store.listCredentials({})).toHaveLength(4);
    });

    it('deletes by exact key, and deleting what is absent deletes nothing', async () => {
      await store.write([put(tokensKey()), put(tokensKey({ userId: 'user-b' }))]);
      await store.write([{ kind: 'credential.delete', key: tokensKey() }]);
      await store.write([{ kind: 'credential.delete', key: tokensKey({ issuer: 'https://absent.example' }) }]);

      expect(sortRecords(await store.listCredentials({}))).toEqual(
        sortRecords([{ key: tokensKey({ userId: 'user-b' }), sealed: 'x', updatedAt: 0 }]),
      );
    });

    it("deletes a user's credentials for one server, whatever the issuer, and nobody else's", async () => {
      const kept = [tokensKey({ userId: 'user-b' }), tokensKey({ serverIdentity: 'identity-of-mail' }), clientKey()];
      await store.write([
        put(tokensKey()),
        put(tokensKey({ issuer: 'https://old.example' })),
        put(tokensKey({ kind: 'pending', issuer: '' })),
        ...kept.map((key) => put(key)),
      ]);
      await store.write([
        { kind: 'credential.delete', match: { userId: 'user-a', serverIdentity: 'identity-of-docs' } },
      ]);

      expect(sortRecords(await store.listCredentials({}))).toEqual(
        sortRecords(kept.map((key) => ({ key, sealed: 'x', updatedAt: 0 }))),
      );
    });

    it("deletes an issuer's client entries only", async () => {
      await store.write([put(clientKey()), put(clientKey('https://other.example')), put(tokensKey())]);
      await store.write([{ kind: 'credential.delete', match: { kind: 'client', issuer: 'https://as.example' } }]);

      expect(sortRecords(await store.listCredentials({}))).toEqual(
        sortRecords(
          [clientKey('https://other.example'), tokensKey()].map((key) => ({ key, sealed: 'x', updatedAt: 0 })),
        ),
      );
    });

    it('stores each write with its audit event, in order, in one chain', async () => {
      const signIn = auditInput('sign in', {
        type: 'auth.sign_in',
        tool: null,
        riskTier: null,
        data: { label: 'sign in' },
      });
      const signOut = auditInput('sign out', {
        type: 'auth.sign_out',
        tool: null,
        riskTier: null,
        data: { label: 'sign out' },
      });
      await store.write([{ ...put(tokensKey()), audit: signIn } as StoreWrite]);
      await store.write([
        { kind: 'credential.delete', match: { userId: 'user-a', serverIdentity: 'identity-of-docs' }, audit: signOut },
      ]);

      const events = await store.queryAudit({});
      expect(labels(events)).toEqual(['sign in', 'sign out']);
      expect(events.map((e) => e.type)).toEqual(['auth.sign_in', 'auth.sign_out']);
      expect(verifyChain(events).ok).toBe(true);
    });

    it('refuses a bad credential write with invalid_arguments, and the whole batch with it', async () => {
      const bad: StoreWrite[] = [
        put({ ...tokensKey(), kind: 'secret' as CredentialKey['kind'] }),
        put(tokensKey({ serverIdentity: '' })),
        put(clientKey('')),
        put(tokensKey(), ''),
        put(tokensKey(), 'x', Number.NaN),
        { kind: 'credential.delete' },
        {
          kind: 'credential.delete',
          key: tokensKey(),
          match: { userId: 'user-a', serverIdentity: 'identity-of-docs' },
        },
        { kind: 'credential.delete', match: { userId: 'user-a', serverIdentity: '' } },
      ];
      for (const write of bad) {
        await expectRejection(store.write([put(clientKey()), write]), 'invalid_arguments');
      }
      expect(await store.listCredentials({})).toEqual([]);
      expect(await store.queryAudit({})).toEqual([]);
    });

    it('keeps credentials across a reopen (stores that persist)', async () => {
      if (opened.reopen === undefined) return;
      await store.write([put(tokensKey(), 'kept', 9)]);
      store = await opened.reopen();

      expect(await store.getCredential(tokensKey())).toEqual({ key: tokensKey(), sealed: 'kept', updatedAt: 9 });
    });
  });
}
