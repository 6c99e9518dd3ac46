import type { Host, Scope } from '@airlock/core';
import { EXIT_CODES } from './exit-codes.js';

interface Out {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * `airlock auth login SERVER`, `airlock auth logout SERVER`, `airlock auth status [--json]`: the user's sign-in to
 * remote servers. Login runs the OAuth flow through the loopback redirect (the browser, or the printed address);
 * logout revokes where the server offers it and deletes the tokens; status never shows a token.
 */
export async function authCommand(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  json: boolean,
  out: Out,
): Promise<number> {
  const [action, serverId] = rest;
  if (action === 'status') {
    const status = await host.auth.status({ scope });
    if (json) {
      out.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return 0;
    }
    if (status.length === 0) out.stdout.write('No configured server signs users in.\n');
    for (const s of status) {
      const until = s.expiresAt === undefined ? '' : `, token until ${new Date(s.expiresAt).toISOString()}`;
      const what = s.signedIn ? `signed in${s.scope === undefined ? '' : ` (${s.scope})`}${until}` : 'not signed in';
      out.stdout.write(`${s.serverId}: ${what}${s.error === undefined ? '' : ` (${s.error})`}\n`);
    }
    return 0;
  }
  if (serverId === undefined) {
    out.stderr.write(`airlock: auth ${action ?? ''} needs a server: airlock auth login|logout SERVER\n`);
    return EXIT_CODES.usage;
  }
  if (action === 'login') {
    const result = await host.auth.signIn({ scope, serverId });
    const granted = result.scope === undefined ? '' : ` (${result.scope})`;
    out.stdout.write(`Signed in to ${serverId}${granted}.\n`);
    return 0;
  }
  const result = await host.auth.signOut({ scope, serverId });
  const said = {
    revoked: 'the server revoked the tokens',
    not_offered: 'the server offers no revocation',
    failed: `revoking failed: ${result.error ?? 'unknown error'}`,
    not_signed_in: 'you were not signed in',
  }[result.revocation];
  out.stdout.write(`Signed out of ${serverId}; the tokens are deleted (${said}).\n`);
  return 0;
}
