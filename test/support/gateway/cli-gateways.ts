import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BIN } from '../cli/run-cli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The demo server's built entry point. */
export const DEMO_BIN = join(root, 'packages/demo-server/dist/bin.js');
/** The MCP project's reference server, run with the argument `stdio`. */
export const EVERYTHING_BIN = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A gateway's folder: its config file (written) and its store (a SQLite file, made by the gateway). */
export interface GatewayWorkspace {
  readonly dir: string;
  readonly config: string;
  readonly store: string;
}

/** How `airlock gateway --http` ended its start: listening at `url`, or exited with `code` before it listened. */
export type GatewayStart =
  | { readonly gateway: ChildProcess; readonly url: URL; readonly code: undefined; readonly stderr: string }
  | { readonly gateway: ChildProcess; readonly url: undefined; readonly code: number | null; readonly stderr: string };

/** One line of the demo server's call log (`AIRLOCK_DEMO_CALL_LOG`): a call that reached it, or its cancellation. */
export interface LoggedCall {
  readonly event: string;
  readonly tool: string;
  readonly args?: Record<string, unknown>;
}

/** The demo server over stdio, logging each call that reaches it to a file in `dir` (`callLog(dir)` reads it). */
export function loggedDemo(dir: string) {
  return { command: process.execPath, args: [DEMO_BIN], env: { AIRLOCK_DEMO_CALL_LOG: join(dir, 'calls.ndjson') } };
}

/** The calls `loggedDemo(dir)` received, in order; none while nothing reached it (the file is made on the first). */
export function callLog(dir: string): LoggedCall[] {
  const path = join(dir, 'calls.ndjson');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LoggedCall);
}

/**
 * What a CLI test file starts around `airlock gateway`: temp folders, clients, HTTP gateway processes; `end()` (in
 * the file's afterEach or afterAll) closes the clients, stops the gateways, then removes the folders.
 */
export class CliGateways {
  readonly #dirs: string[] = [];
  readonly #clients: { close(): Promise<void> }[] = [];
  readonly #gateways: ChildProcess[] = [];

  /** A fresh temp folder, removed at `end()`. */
  folder(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  /**
   * A fresh folder with `config` written as its `airlock.config.json` (made from the folder's path where it names a
   * file there, a call log say), and the path of a store beside it.
   */
  workspace(prefix: string, config: object | ((dir: string) => object)): GatewayWorkspace {
    const dir = this.folder(prefix);
    const file = join(dir, 'airlock.config.json');
    writeFileSync(file, JSON.stringify(typeof config === 'function' ? config(dir) : config, null, 2));
    return { dir, config: file, store: join(dir, 'airlock.db') };
  }

  /** Keeps `client` to close at `end()`; answers it. */
  client<T extends { close(): Promise<void> }>(client: T): T {
    this.#clients.push(client);
    return client;
  }

  /**
   * Starts the CLI with `args` (`gateway --config …`) and `--http --port 0`, in `env` (the whole environment), stopped
   * at `end()`; resolves once it says where it listens (after its servers settled), or with its exit code if it ends
   * first.
   */
  async startHttp(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<GatewayStart> {
    const gateway = spawn(process.execPath, [CLI_BIN, ...args, '--http', '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    this.#gateways.push(gateway);
    let stderr = '';
    gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(gateway, 'exit').then(([code]) => code as number | null);
    const listening = /listening on (\S+)/;
    while (!listening.test(stderr)) {
      const code = await Promise.race([once(gateway.stderr, 'data').then(() => undefined), exited]);
      if (code !== undefined) return { gateway, url: undefined, code, stderr };
    }
    return { gateway, url: new URL(listening.exec(stderr)![1]!), code: undefined, stderr };
  }

  /** `startHttp` that must listen: its URL, or an error with the gateway's stderr. */
  async listening(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<URL> {
    const start = await this.startHttp(args, env);
    if (start.url === undefined)
      throw new Error(`airlock gateway exited ${start.code} before it listened:\n${start.stderr}`);
    return start.url;
  }

  /** `startHttp` that must not start: its exit code and stderr, or an error if it listens. */
  async exits(
    args: readonly string[],
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<{ code: number | null; stderr: string }> {
    const start = await this.startHttp(args, env);
    if (start.url !== undefined)
      throw new Error(`airlock gateway listens on ${start.url.href}; it was to refuse to start`);
    return { code: start.code, stderr: start.stderr };
  }

  async end(): Promise<void> {
    await Promise.allSettled(this.#clients.splice(0).map((client) => client.close()));
    for (const gateway of this.#gateways.splice(0)) await stopGateway(gateway);
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** Ends a gateway (SIGTERM) and waits for its exit, which commits what its calls left in the history. */
export async function stopGateway(gateway: ChildProcess): Promise<void> {
  if (gateway.exitCode !== null || gateway.signalCode !== null) return;
  const exited = once(gateway, 'exit');
  gateway.kill('SIGTERM');
  await exited;
}
