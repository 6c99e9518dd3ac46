import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '@airlock/core';
import type { Host, HostConfig, Scope } from '@airlock/core';
import { ScriptedSurface } from '@airlock/core/testing';

// The adapters' tests run a real host over the built demo server on stdio, as an application would. Not shipped.

/** The demo server's bin, beside its package entry. */
const DEMO_BIN = fileURLToPath(new URL('bin.js', import.meta.resolve('@airlock/demo-server')));

export const SCOPE: Scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };

/** A host on the demo server: the surface answers allow once unless told, and delete_note is denied by a rule. */
export interface DemoHost {
  readonly host: Host;
  readonly surface: ScriptedSurface;
  /** The tools the demo server received, in order (its call log). */
  readonly received: () => { tool: string; args?: unknown }[];
  readonly close: () => Promise<void>;
}

export async function startDemoHost(config: Partial<HostConfig> = {}): Promise<DemoHost> {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-ai-sdk-'));
  const log = join(dir, 'calls.ndjson');
  const surface = new ScriptedSurface('allow_once');
  const host = createHost({
    servers: {
      mcpServers: { demo: { command: process.execPath, args: [DEMO_BIN], env: { AIRLOCK_DEMO_CALL_LOG: log } } },
    },
    surface,
    permissions: { rules: [{ effect: 'deny', server: 'demo', tool: 'delete_note' }] },
    ...config,
  });
  await host.servers.settled();
  return {
    host,
    surface,
    received: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as { event: string; tool: string; args?: unknown })
            .filter((line) => line.event === 'call')
        : [],
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
