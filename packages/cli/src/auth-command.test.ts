import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  headlessAuthorize,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '../../../test/support/oauth/index.js';
import type { AuthorizationServer, ProtectedMcpServer } from '../../../test/support/oauth/index.js';

// `airlock auth` as a user runs it: in a pseudo-terminal, with no browser (BROWSER points at a program that does
// nothing), so the user opens the printed address themselves; here a headless user signs in at a real oidc-provider
// and their browser lands on the CLI's loopback redirect.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let dir: string;
let configFile: string;
let store: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  dir = mkdtempSync(join(tmpdir(), 'airlock-cli-auth-'));
  configFile = join(dir, 'airlock.config.json');
  store = join(dir, 'data', 'airlock.db');
  writeFileSync(configFile, JSON.stringify({ mcpServers: { notes: { url: mcp.url, oauth: {} } } }));
});

afterAll(async () => {
  await mcp.close();
  await as.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  /** stdout and stderr as they came. */
  readonly output: string;
  readonly stdout: string;
}

/** Runs the CLI; with `terminal`, under a pseudo-terminal (python's pty), handing each output chunk to `onOutput`. */
function airlock(args: string[], options: { terminal?: boolean; onOutput?: (all: string) => void } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, BROWSER: 'true', NO_COLOR: '1' };
  delete env['AIRLOCK_STORE'];
  delete env['AIRLOCK_SECRET_KEY'];
  const full = [BIN, ...args, '--config', configFile, '--store', store];
  const child =
    options.terminal === true
      ? spawn('python3', ['-c', 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)', process.execPath, ...full], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, full, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(output);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    take(chunk);
  });
  child.stderr.on('data', take);
  return new Promise<Run>((done) => child.on('close', (code) => done({ code, output, stdout })));
}

describe('airlock auth', () => {
  it('logs in through the printed address and the loopback redirect, then calls as the user, then logs out', async () => {
    let followed = false;
    const login = await airlock(['auth', 'login', 'notes'], {
      terminal: true,
      onOutput: (all) => {
        const match = /open this address:\s+(\S+)/.exec(all);
        if (match === null || followed) return;
        followed = true;
        // The user opens the address; the authorization server sends their browser back to the loopback listener.
        void headlessAuthorize({ account: 'dev' })({ serverId: 'notes', authorizationUrl: new URL(match[1]!) }).then(
          (back) => fetch(back),
        );
      },
    });
    expect(login.output).toContain('Sign in to notes in your browser');
    expect(login.output).toContain('Signed in to notes');
    expect(login.code).toBe(0);
    // The key that seals the tokens sits beside the history, readable by its owner only.
    expect(statSync(join(dir, 'data', 'secret.key')).mode & 0o777).toBe(0o600);

    const status = await airlock(['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ serverId: 'notes', signedIn: true })]);
    expect(status.output).not.toMatch(/access_token|refresh_token/);

    const call = await airlock(['call', 'notes/whoami', '--allow']);
    expect(call.output).toMatch(/account "?dev"?/);

    const logout = await airlock(['auth', 'logout', 'notes']);
    expect(logout.output).toContain('Signed out of notes; the tokens are deleted (the server revoked the tokens)');
    const after = await airlock(['call', 'notes/whoami', '--allow']);
    expect(after.output).toMatch(/sign in/);
  });

  it('checks its arguments before anything starts', async () => {
    const bad = await airlock(['auth', 'login']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('auth login needs a server id');
    const unknown = await airlock(['auth', 'logout', 'nope']);
    expect(unknown.output).toMatch(/no server "nope"/);
  });
});
