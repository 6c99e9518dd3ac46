import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { AuditEventInput } from '../store/audit-record.js';
import { StoredInputs } from './stored-inputs.js';
import { TokenVault } from './token-vault.js';

const KEY = { userId: 'ana', source: 'test', inputId: 'api-key' };

const event = (action: string): AuditEventInput => ({
  type: 'model.key',
  at: 1,
  userId: 'ana',
  workspaceId: 'default',
  conversationId: null,
  serverId: null,
  tool: null,
  argsHash: null,
  riskTier: null,
  invocationId: null,
  data: { action },
});

describe('stored inputs', () => {
  it('commits the audit event given with a value kept, and with one forgotten only when there was one', async () => {
    const store = new MemoryStore();
    const inputs = new StoredInputs({ store, vault: TokenVault.fromKey(randomBytes(32)) });
    const actions = async () =>
      (await store.queryAudit({ userId: 'ana', type: 'model.key' })).map((e) => e.data['action']);

    await inputs.set(KEY, 'sk-secret', event('kept'));
    expect(await inputs.get(KEY)).toBe('sk-secret');
    expect(await inputs.clear(KEY, event('forgotten'))).toBe(true);
    expect(await inputs.clear(KEY, event('forgotten again'))).toBe(false);
    expect(await actions()).toEqual(['kept', 'forgotten']);
    expect(JSON.stringify(await store.queryAudit({ userId: 'ana' }))).not.toContain('sk-secret');
    await store.close();
  });
});
