import { createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntryContext } from '../config/server-entry-context.js';

/** The signing algorithms a `private_key_jwt` client assertion may use (RFC 7523, as the SDK signs them). */
export const PRIVATE_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];

/** OAuth settings of an HTTP server, when it has some the user configured (discovery finds the rest). */
export interface ServerOAuthConfig {
  /** `authorization_code`: each user signs in (default). `client_credentials`: the host signs in as itself. */
  readonly grant: 'authorization_code' | 'client_credentials';
  /** A client registered in advance with the authorization server; without it, a metadata document or DCR. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly scopes?: readonly string[];
  /** `private_key_jwt`: the client's private key (PEM), read from `privateKeyFile` or given as `privateKey`. */
  readonly privateKey?: string;
  /** The key's signing algorithm (default RS256). */
  readonly privateKeyAlgorithm?: string;
}

const KEYS = ['grant', 'clientId', 'clientSecret', 'scopes', 'privateKey', 'privateKeyFile', 'privateKeyAlgorithm'];

/**
 * Reads a server entry's `oauth`. Its strings take the config's variables (`${env:NAME}` for a secret kept out of
 * the file); `${input:ID}` is refused here, since inputs are filled into a server's env, args and headers only, and a
 * placeholder must never be sent as a secret. A private key is read and parsed at load, so a wrong path or a key
 * that is not one fails with the file's line and column rather than at the first sign-in.
 */
export function parseServerOAuth(value: unknown, ctx: EntryContext, folder: string): ServerOAuthConfig {
  const { fail } = ctx;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('oauth', 'must be an object');
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KEYS.includes(key)) fail(`oauth.${key}`, 'is not a known setting');
  const grant = o['grant'] ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials') {
    return fail('oauth.grant', 'must be "authorization_code" or "client_credentials"');
  }
  const text = (key: string): string | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') return fail(`oauth.${key}`, 'must be a non-empty string');
    const expanded = ctx.text(v, ['oauth', key]);
    if (expanded.includes('${input:')) {
      fail(`oauth.${key}`, 'cannot take an input (${input:…}): give it through ${env:NAME}');
    }
    return expanded;
  };
  const clientId = text('clientId');
  const clientSecret = text('clientSecret');
  const scopes = o['scopes'];
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((x) => typeof x === 'string' && x !== ''))) {
    fail('oauth.scopes', 'must be an array of non-empty strings');
  }
  const key = readPrivateKey(text('privateKey'), text('privateKeyFile'), folder, fail);
  const given = o['privateKeyAlgorithm'];
  if (given !== undefined && !PRIVATE_KEY_ALGORITHMS.includes(given as string)) {
    fail('oauth.privateKeyAlgorithm', `must be one of ${PRIVATE_KEY_ALGORITHMS.join(', ')}`);
  }
  if (given !== undefined && key === undefined) fail('oauth.privateKeyAlgorithm', 'needs privateKey or privateKeyFile');
  const algorithm = key === undefined ? undefined : signingAlgorithm(key.object, given as string | undefined, fail);
  // The SDK signs with a PKCS#8 key only: a PKCS#1 or SEC1 file (what openssl writes by default) is converted here.
  const privateKey = key?.object.export({ type: 'pkcs8', format: 'pem' }) as string | undefined;
  if (privateKey !== undefined && clientId === undefined) {
    fail('oauth', 'a private key (private_key_jwt) needs the clientId it was registered under');
  }
  if (grant === 'client_credentials' && (clientId === undefined || (clientSecret ?? privateKey) === undefined)) {
    fail('oauth', 'client_credentials needs clientId, and clientSecret or a private key');
  }
  return {
    grant,
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(scopes === undefined ? {} : { scopes: scopes as string[] }),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...(algorithm === undefined ? {} : { privateKeyAlgorithm: algorithm }),
  };
}

/** The PEM given inline or read from a file (relative to the config's folder), parsed as a private key. */
function readPrivateKey(
  inline: string | undefined,
  file: string | undefined,
  folder: string,
  fail: EntryContext['fail'],
): { readonly object: KeyObject } | undefined {
  if (inline !== undefined && file !== undefined) fail('oauth', 'has both privateKey and privateKeyFile: give one');
  const field = file === undefined ? 'oauth.privateKey' : 'oauth.privateKeyFile';
  let pem = inline;
  if (file !== undefined) {
    const path = resolve(folder, file);
    try {
      pem = readFileSync(path, 'utf8');
    } catch (error) {
      return fail(field, `cannot be read: ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  if (pem === undefined) return undefined;
  try {
    return { object: createPrivateKey(pem) };
  } catch (error) {
    return fail(field, `is not a private key in PEM: ${(error as Error).message}`);
  }
}

/** The key's own algorithm when none is given, else the one given, refused when the key cannot sign with it. */
function signingAlgorithm(key: KeyObject, given: string | undefined, fail: EntryContext['fail']): string {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const fits: readonly string[] =
    type === 'rsa'
      ? ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']
      : type === 'rsa-pss'
        ? ['PS256', 'PS384', 'PS512']
        : type === 'ec' && curve === 'prime256v1'
          ? ['ES256']
          : type === 'ec' && curve === 'secp384r1'
            ? ['ES384']
            : type === 'ed25519'
              ? ['EdDSA']
              : [];
  if (fits.length === 0) {
    return fail(
      'oauth.privateKey',
      `is a key (${type ?? 'unknown'}${curve === undefined ? '' : `, ${curve}`}) that signs with none of ${PRIVATE_KEY_ALGORITHMS.join(', ')}`,
    );
  }
  if (given === undefined) return fits[0]!;
  if (!fits.includes(given)) {
    fail(
      'oauth.privateKeyAlgorithm',
      `is ${given}, which this key (${type}${curve === undefined ? '' : `, ${curve}`}) cannot sign with (it can: ${fits.join(', ')})`,
    );
  }
  return given;
}
