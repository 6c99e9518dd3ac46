import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HostError } from '../errors/host-error.js';

/** The environment variable that holds the secret key (32 bytes, base64 or hex). */
export const SECRET_KEY_ENV = 'AIRLOCK_SECRET_KEY';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** Where a vault takes its key from. */
export interface TokenVaultOptions {
  /** The environment to read `AIRLOCK_SECRET_KEY` from (default `process.env`); it wins over the key file. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A file holding the key (base64 or hex). Created with a fresh random key, readable by its owner only (0600), when
   * absent; typically beside the store, e.g. `~/.local/share/airlock/secret.key`.
   */
  readonly keyFile?: string;
}

/** The key in `text` (64 hex digits, or base64 of 32 bytes), refused with an error naming `source`. */
function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : undefined;
  if (bytes === undefined || bytes.length !== KEY_BYTES) {
    throw new HostError(
      'config_invalid',
      `${source} must hold a ${KEY_BYTES}-byte key as 64 hex digits or base64` +
        (bytes === undefined ? ' (it is neither)' : ` (it decodes to ${bytes.length} bytes)`),
      { data: { source } },
    );
  }
  return bytes;
}

/** A short, non-secret name of a key, so a credential sealed with another key is told apart from an altered one. */
function keyId(key: Buffer): string {
  return createHash('sha256').update('airlock token vault key id\0').update(key).digest('hex').slice(0, 8);
}

/**
 * Seals credentials before they reach the store, with AES-256-GCM (node:crypto): a copy of the database gives away
 * no token without the key. Each sealed value names its key (a short id, not the key) and is bound to its context
 * (the credential's key in the store) as additional data, so a value moved to another user's row does not open.
 *
 * Opening a value sealed with another key, or altered in any way, throws `HostError('credential_unreadable')`: never
 * a crash, never a silent empty value.
 */
export class TokenVault {
  readonly #key: Buffer;
  /** The short id of this vault's key, written into every value it seals. */
  readonly keyId: string;

  private constructor(key: Buffer) {
    this.#key = key;
    this.keyId = keyId(key);
  }

  /** A vault over this key (32 bytes, or their base64 or hex). */
  static fromKey(key: Uint8Array | string, source = 'the secret key'): TokenVault {
    return new TokenVault(
      typeof key === 'string' ? parseKey(key, source) : parseKey(Buffer.from(key).toString('hex'), source),
    );
  }

  /**
   * A vault over the key in `AIRLOCK_SECRET_KEY`, else the key file (created with a random key, mode 0600, when
   * absent). Refuses with `config_invalid` when neither is given or the key is not 32 bytes.
   */
  static async open(options: TokenVaultOptions = {}): Promise<TokenVault> {
    const env = options.env ?? process.env;
    const fromEnv = env[SECRET_KEY_ENV];
    if (fromEnv !== undefined && fromEnv !== '') return TokenVault.fromKey(fromEnv, SECRET_KEY_ENV);
    const file = options.keyFile;
    if (file === undefined) {
      throw new HostError(
        'config_invalid',
        `no secret key for stored credentials: set ${SECRET_KEY_ENV} (32 bytes, base64 or hex) or give a key file`,
      );
    }
    return TokenVault.fromKey(await readOrCreateKeyFile(file), `the key file ${file}`);
  }

  /** Seals `value` (as JSON) for `context`: `v1.<key id>.<base64 of iv, tag and ciphertext>`. */
  seal(value: unknown, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return `${VERSION}.${this.keyId}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Opens a value `seal` made for the same context; throws `credential_unreadable` for anything else. */
  open(sealed: string, context: string): unknown {
    const parts = typeof sealed === 'string' ? sealed.split('.') : [];
    const [version, id, payload] = parts;
    if (parts.length !== 3 || version !== VERSION || id === undefined || payload === undefined) {
      throw unreadable(`it is not a value this vault seals (expected ${VERSION}.<key id>.<data>)`);
    }
    if (id !== this.keyId) {
      throw unreadable(
        `it was sealed with another secret key (key id ${id}; this host's key is ${this.keyId}): ` +
          `${SECRET_KEY_ENV} or the key file changed since`,
      );
    }
    const data = Buffer.from(payload, 'base64');
    if (data.length < IV_BYTES + TAG_BYTES) throw unreadable('it is too short to hold a sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, data.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(text.toString('utf8')) as unknown;
    } catch (error) {
      throw unreadable('it was altered, or sealed for another credential', error);
    }
  }
}

function unreadable(why: string, cause?: unknown): HostError {
  return new HostError('credential_unreadable', `a stored credential cannot be opened: ${why}`, {
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The key file's text; a fresh random key written with mode 0600 (its folder 0700) when the file is absent. */
async function readOrCreateKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw keyFileError(file, error);
  }
  const key = randomBytes(KEY_BYTES).toString('base64');
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    // 'wx': never overwrite a key another process wrote meanwhile (that key sealed its credentials).
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file, 'utf8');
    throw keyFileError(file, error);
  }
}

function keyFileError(file: string, error: unknown): HostError {
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('config_invalid', `the key file ${file} cannot be read or created: ${message}`, {
    data: { keyFile: file },
    cause: error,
  });
}
