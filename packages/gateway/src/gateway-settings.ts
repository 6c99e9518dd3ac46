import type { ConfigFile } from '@airlock/core';
import { HostError } from '@airlock/core';
import type { GatewayUser } from './gateway-handler.js';
import type { GatewayOAuthSettings } from './oauth-resource-server.js';

/** The config's `gateway` section, checked. */
export interface GatewaySettings {
  /** The console also serves the gateway at `/mcp`. */
  readonly enabled: boolean;
  /** The users of `gateway.users`, each with their token's hash and workspace. */
  readonly users: readonly GatewayUser[];
  /** `gateway.oauth`: bearer JWTs of one authorization server accepted too (the gateway as its resource server). */
  readonly oauth?: GatewayOAuthSettings;
}

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const USER_KEYS = new Set(['tokenSha256', 'workspace']);
const OAUTH_KEYS = ['issuer', 'resource', 'scopes', 'userClaim', 'workspaceClaim', 'workspace'];

/**
 * Reads `gateway` from a config file: `enabled`, and `users` keyed by user name, each `{ tokenSha256, workspace? }`
 * (workspace "default" when absent). A wrong value, an unknown key in a user, or a token hash two users share is a
 * `config_invalid` error at its `file:line:col`: a user who cannot get in is better told at start than by a 401.
 */
export function readGatewaySettings(file: Pick<ConfigFile, 'json' | 'locate'>): GatewaySettings {
  const fail = (path: (string | number)[], message: string): never => {
    throw new HostError('config_invalid', `${file.locate(path)}: ${path.join('.')} ${message}`);
  };
  const section = file.json['gateway'];
  if (section === undefined) return { enabled: false, users: [] };
  if (!isObject(section)) return fail(['gateway'], 'must be an object');
  const enabled = section['enabled'] ?? false;
  if (typeof enabled !== 'boolean') fail(['gateway', 'enabled'], 'must be true or false');
  const users = section['users'] ?? {};
  if (!isObject(users)) return fail(['gateway', 'users'], 'must be an object of { "NAME": { "tokenSha256": … } }');
  const owners = new Map<string, string>();
  const read = Object.entries(users).map(([name, entry]): GatewayUser => {
    const at = ['gateway', 'users', name];
    if (!NAME.test(name)) fail(at, 'is not a user name: 1-64 letters, digits, ".", "_", "@" or "-"');
    if (!isObject(entry)) return fail(at, 'must be an object { "tokenSha256": …, "workspace": … }');
    for (const key of Object.keys(entry)) {
      if (!USER_KEYS.has(key)) fail([...at, key], 'is not a key of a gateway user (tokenSha256, workspace)');
    }
    const hash = entry['tokenSha256'];
    if (typeof hash !== 'string' || !SHA256.test(hash)) {
      return fail([...at, 'tokenSha256'], 'must be the sha256 of the token, 64 lowercase hex digits');
    }
    const workspace = entry['workspace'] ?? 'default';
    if (typeof workspace !== 'string' || !NAME.test(workspace)) {
      return fail([...at, 'workspace'], 'must be a workspace name: 1-64 letters, digits, ".", "_", "@" or "-"');
    }
    const other = owners.get(hash);
    if (other !== undefined) fail([...at, 'tokenSha256'], `is also ${other}'s: each user needs a token of their own`);
    owners.set(hash, name);
    return { tokenSha256: hash, userId: name, workspaceId: workspace };
  });
  const oauth = section['oauth'] === undefined ? undefined : readOAuth(section['oauth'], fail);
  return { enabled: enabled as boolean, users: read, ...(oauth && { oauth }) };
}

/**
 * `gateway.oauth`: `issuer` (https, or http on loopback, as OAuth 2.1 allows), and optionally `resource` (the audience
 * tokens must carry; default the gateway's own /mcp URL), `scopes` every token must hold, the claims naming the user
 * (`userClaim`, default sub) and the workspace (`workspaceClaim`), and the `workspace` of a token that names none.
 */
function readOAuth(value: unknown, fail: (path: (string | number)[], message: string) => never): GatewayOAuthSettings {
  const at = ['gateway', 'oauth'];
  if (!isObject(value)) return fail(at, 'must be an object { "issuer": "https://…", … }');
  for (const key of Object.keys(value)) {
    if (!OAUTH_KEYS.includes(key)) fail([...at, key], `is not a key of gateway.oauth (${OAUTH_KEYS.join(', ')})`);
  }
  const url = (key: string, required: boolean): string | undefined => {
    const given = value[key];
    if (given === undefined && !required) return undefined;
    if (typeof given !== 'string' || !isOAuthUrl(given)) {
      return fail([...at, key], 'must be an https URL (http only on localhost or a loopback address)');
    }
    return given;
  };
  const word = (key: string): string | undefined => {
    const given = value[key];
    if (given === undefined) return undefined;
    if (typeof given !== 'string' || given === '') return fail([...at, key], 'must be a non-empty string');
    return given;
  };
  const scopes = value['scopes'];
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && /^\S+$/.test(s)))
  ) {
    fail([...at, 'scopes'], 'must be a list of scope names (no spaces)');
  }
  const workspace = word('workspace');
  if (workspace !== undefined && !NAME.test(workspace)) {
    fail([...at, 'workspace'], 'must be a workspace name: 1-64 letters, digits, ".", "_", "@" or "-"');
  }
  const resource = url('resource', false);
  const userClaim = word('userClaim');
  const workspaceClaim = word('workspaceClaim');
  return {
    issuer: url('issuer', true)!,
    ...(resource && { resource }),
    ...(scopes !== undefined && { scopes: scopes as string[] }),
    ...(userClaim && { userClaim }),
    ...(workspaceClaim && { workspaceClaim }),
    ...(workspace && { workspace }),
  };
}

function isOAuthUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
