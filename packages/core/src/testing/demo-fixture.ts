import { spawn } from 'node:child_process';
import { existsSync, readFileSync, watch } from 'node:fs';
import { scratchDir } from './scratch-dir.js';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Host } from '../host/host.js';
import type { HostEventMap, HostEventName } from '../events/host-events.js';
import type { ServerConfig } from '../servers/server-config.js';

/** The built demo server: the tests spawn it over real stdio, as a user's host would. */
export const DEMO_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../demo-server/dist/bin.js');

if (!existsSync(DEMO_BIN)) throw new Error(`${DEMO_BIN} is missing: run "npm run build" first`);

/** A demo server config whose every received call is appended to a fresh log file. */
export function demoServer(
  id = 'demo',
  options: { args?: string[]; negotiation?: 'legacy' | 'auto'; trusted?: boolean } = {},
): { config: ServerConfig; log: string } {
  const log = join(scratchDir('airlock-demo-'), 'calls.ndjson');
  return {
    log,
    config: {
      id,
      transport: 'stdio',
      command: process.execPath,
      args: [DEMO_BIN, ...(options.args ?? [])],
      env: { AIRLOCK_DEMO_CALL_LOG: log },
      trusted: options.trusted ?? false,
      disabled: false,
      ...(options.negotiation === undefined ? {} : { negotiation: options.negotiation }),
    },
  };
}

/** A stdio server config running an inline Node script (a misbehaving server). */
export function scriptServer(id: string, script: string): ServerConfig {
  return {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: ['-e', script],
    env: {},
    trusted: false,
    disabled: false,
  };
}

/** The events of a demo call log. */
export function readCallLog(path: string): { event: string; tool: string; args?: unknown }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { event: string; tool: string });
}

/** Resolves when the call log holds a matching line, watching the file rather than sleeping. */
export function waitForLog(
  path: string,
  match: (line: { event: string; tool: string }) => boolean,
  timeoutMs = 10_000,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const check = () => readCallLog(path).some(match);
    // Watch first, then look: a line written between a first look and the watch would otherwise go unseen.
    const watcher = watch(dirname(path), () => {
      if (check()) done();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`no matching line in ${path} within ${timeoutMs} ms: ${readFileSync(path, 'utf8')}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      watcher.close();
      resolvePromise();
    };
    if (check()) done();
  });
}

/** Resolves with the first event that matches. */
export function nextEvent<E extends HostEventName>(
  host: Host,
  name: E,
  match: (event: HostEventMap[E]) => boolean = () => true,
): Promise<HostEventMap[E]> {
  return new Promise((resolvePromise) => {
    const off = host.on(name, (event) => {
      if (!match(event)) return;
      off();
      resolvePromise(event);
    });
  });
}

/** A scope for tests. */
export const SCOPE = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' } as const;

/** Starts a demo server over HTTP; resolves with its URL and a stop function. */
export async function startHttpDemo(log: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [DEMO_BIN, '--http'], {
    env: { ...process.env, AIRLOCK_DEMO_CALL_LOG: log },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolvePromise, reject) => {
    let buffer = '';
    child.stderr.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /listening (http:\/\/\S+)/.exec(buffer);
      if (match?.[1] !== undefined) resolvePromise(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`demo server exited with ${code}: ${buffer}`)));
  });
  return { url, stop: () => child.kill() };
}
