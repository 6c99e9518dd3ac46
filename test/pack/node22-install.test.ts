import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import type { Run } from './run-command.js';
import { findNode22 } from '../support/node22/node22.js';

// The CLI as a Node 22 user installs it: the packed packages into an empty project, npm itself running on the
// registry's node@22. The store then runs on node:sqlite, so the install must compile nothing (better-sqlite3 is an
// optional peer, for Node 20 only). Skips, saying why, where no Node 22 binary can be had.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SLOW = 600_000;
const FOLDERS = ['packages/core', 'packages/demo-server', 'packages/gateway', 'packages/cli'];

/** npm's own script, beside the Node running this test: run under Node 22, it installs as a Node 22 user's npm does. */
const NPM_CLI = join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');

/** Runs a command with Node 22 first on the PATH: install scripts and `#!/usr/bin/env node` find it. */
function run(command: string, args: readonly string[], cwd: string, node22: string): Promise<Run> {
  return runCommand(command, args, cwd, { PATH: `${dirname(node22)}${delimiter}${process.env['PATH'] ?? ''}` });
}

describe('the packed CLI installed with Node 22', { timeout: SLOW }, () => {
  let work: string | undefined;
  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('installs without better-sqlite3 and keeps history on node:sqlite', async (context) => {
    const node22 = await findNode22();
    if ('missing' in node22) {
      context.skip(`no Node 22 binary: ${node22.missing}`);
      return;
    }
    if (!existsSync(NPM_CLI)) {
      context.skip(`npm's script is not at ${NPM_CLI}`);
      return;
    }
    work = mkdtempSync(join(tmpdir(), 'airlock-node22-pack-'));
    const packs = join(work, 'tarballs');
    const project = join(work, 'project');
    mkdirSync(packs);
    mkdirSync(project);
    const tarballs: string[] = [];
    for (const folder of FOLDERS) {
      if (!existsSync(join(ROOT, folder, 'dist'))) throw new Error(`${folder} is not built: run npm run build first`);
      const packed = await run(
        process.execPath,
        [NPM_CLI, 'pack', '--json', '--pack-destination', packs],
        join(ROOT, folder),
        node22.path,
      );
      const [info] = JSON.parse(packed.stdout) as { filename: string }[];
      tarballs.push(join(packs, info!.filename));
    }
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'node22-user', private: true, type: 'module' }),
    );

    const started = Date.now();
    const install = await run(
      node22.path,
      [NPM_CLI, 'install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs],
      project,
      node22.path,
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(`node22-install: npm install of the packed CLI took ${seconds.toFixed(1)} s on Node 22`);
    expect(install.code, install.stderr).toBe(0);
    expect(existsSync(join(project, 'node_modules/better-sqlite3'))).toBe(false);

    writeFileSync(
      join(project, 'airlock.config.json'),
      JSON.stringify({
        mcpServers: { demo: { command: node22.path, args: ['node_modules/@airlock/demo-server/dist/bin.js'] } },
      }),
    );
    const bin = join(project, 'node_modules/@airlock/cli/dist/bin.js');
    const tools = await run(
      node22.path,
      [bin, 'tools', '--config', 'airlock.config.json', '--store', 'cli.db'],
      project,
      node22.path,
    );
    expect(tools.stderr).not.toMatch(/ExperimentalWarning|better-sqlite3/);
    expect(tools.stdout).toContain('demo__echo');
    expect(tools.code).toBe(0);
    expect(existsSync(join(project, 'cli.db'))).toBe(true);
  });
});
