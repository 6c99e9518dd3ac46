import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_KEY_ENV, TokenVault } from './token-vault.js';

describe('TokenVault', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-vault-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('seals a value that opens again for the same context, and hides it', () => {
    const vault = TokenVault.fromKey(randomBytes(32));
    const sealed = vault.seal({ access_token: 'secret-token-value' }, 'ctx-a');

    expect(sealed).not.toContain('secret-token-value');
    expect(vault.open(sealed, 'ctx-a')).toEqual({ access_token: 'secret-token-value' });
    expect(vault.seal('x', 'ctx-a')).not.toBe(vault.seal('x', 'ctx-a'));
  });

  it('takes the key from AIRLOCK_SECRET_KEY as hex or base64, before any key file', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'secret.key');
    const hex = await TokenVault.open({ env: { [SECRET_KEY_ENV]: key.toString('hex') }, keyFile: file });
    const base64 = await TokenVault.open({ env: { [SECRET_KEY_ENV]: key.toString('base64') } });

    expect(base64.open(hex.seal('v', 'c'), 'c')).toBe('v');
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates the key file readable by its owner only, and reads the same key back', async () => {
    const file = join(dir, 'nested', 'secret.key');
    const first = await TokenVault.open({ env: {}, keyFile: file });
    const second = await TokenVault.open({ env: {}, keyFile: file });

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(second.open(first.seal('v', 'c'), 'c')).toBe('v');
  });

  it('refuses a key that is not 32 bytes, or no key at all, as config_invalid naming the source', async () => {
    await expect(TokenVault.open({ env: { [SECRET_KEY_ENV]: 'abcd' } })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining(SECRET_KEY_ENV),
    });
    const file = join(dir, 'short.key');
    await writeFile(file, randomBytes(16).toString('base64'));
    await expect(TokenVault.open({ env: {}, keyFile: file })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/short\.key.*16 bytes/),
    });
    await expect(TokenVault.open({ env: {} })).rejects.toMatchObject({ code: 'config_invalid' });
  });

  it('says a value was sealed with another key, rather than failing obscurely', () => {
    const sealed = TokenVault.fromKey(randomBytes(32)).seal('v', 'c');
    expect(() => TokenVault.fromKey(randomBytes(32)).open(sealed, 'c')).toThrow(
      expect.objectContaining({ code: 'credential_unreadable', message: expect.stringMatching(/another secret key/) }),
    );
  });

  it('refuses a tampered value, a value moved to another credential, and garbage', () => {
    const vault = TokenVault.fromKey(randomBytes(32));
    const sealed = vault.seal({ token: 'abc' }, 'ctx-a');
    const [version, id, payload] = sealed.split('.');
    const bytes = Buffer.from(payload!, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const tampered = `${version}.${id}.${bytes.toString('base64')}`;

    for (const [value, context] of [
      [tampered, 'ctx-a'],
      [sealed, 'ctx-b'],
      ['not a sealed value', 'ctx-a'],
      [`${version}.${id}.AAAA`, 'ctx-a'],
    ] as const) {
      expect(() => vault.open(value, context)).toThrow(expect.objectContaining({ code: 'credential_unreadable' }));
    }
  });
});
